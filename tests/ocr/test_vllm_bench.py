"""The GPU benchmark records nothing where it cannot run, and says why."""
from __future__ import annotations

import benchmarks.bench_vllm_ocr as bench
from benchmarks import common


def test_no_gpu_records_nothing(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(common, "RESULTS", tmp_path / "results.jsonl")
    monkeypatch.setattr(bench, "device", lambda: "cpu")
    common.record(bench.run())
    assert not (tmp_path / "results.jsonl").exists() or not (tmp_path / "results.jsonl").read_text()
    assert "no GPU visible" in capsys.readouterr().out


def test_gpu_without_the_gpu_extra_says_what_to_install(monkeypatch):
    monkeypatch.setattr(bench, "device", lambda: "NVIDIA H100 80GB HBM3")
    try:
        import vllm  # noqa: F401
    except ImportError:
        reason = bench.unavailable_reason()
        assert reason and "gpu extra" in reason
    else:  # a GPU machine with the extra: nothing is missing
        assert bench.unavailable_reason() is None

