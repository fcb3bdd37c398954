"""The robustness benchmark's machinery (``benchmarks/robustness``): a hang or a crash costs its own
PDF only and is reported as such; mutations are deterministic; the corpus is rebuilt from a folder."""
from __future__ import annotations

import json
import os
import signal
import time

from benchmarks.robustness import pool
from benchmarks.robustness.collect import collect, load_manifest
from benchmarks.robustness.fuzz import KINDS, mutate
from benchmarks.robustness.pool import run_pool
from benchmarks.robustness.sources import from_folder
from tests.ocr.handmade_pdf import utf8_cmap_pdf


def _job(payload: str) -> str:
    if payload == "hang":  # a loop that never ends: it uses its CPU budget
        while True:
            pass
    if payload == "sleep":  # stuck without using CPU: the wall cap ends it
        time.sleep(60)
    if payload == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    if payload == "raise":
        raise ValueError("boom")
    return payload.upper()


def test_a_hang_and_a_crash_cost_their_own_job_only(monkeypatch):
    monkeypatch.setattr(pool, "WALL_FACTOR", 3)
    jobs = [(p, p, 1.0) for p in ("a", "hang", "b", "segfault", "c", "raise", "sleep", "d")]
    out = {o.key: o for o in run_pool(_job, jobs, workers=2, niceness=0)}
    assert {k: o.outcome for k, o in out.items()} == {
        "a": "ok", "b": "ok", "c": "ok", "d": "ok", "hang": "timeout", "sleep": "timeout", "segfault": "crash",
        "raise": "error"}
    assert out["sleep"].seconds >= 3 and "CPU s" in out["hang"].detail
    assert [out[k].value for k in "abcd"] == ["A", "B", "C", "D"]
    assert "-11" in out["segfault"].detail and "ValueError: boom" in out["raise"].detail


def test_mutations_are_seeded_and_keep_the_header_and_the_end_marker():
    data = utf8_cmap_pdf("Tokyo 日本")
    for kind in KINDS:
        one, two = mutate(data, kind, "sha", 3), mutate(data, kind, "sha", 3)
        assert one == two and one.startswith(b"%PDF-1.4\n"), kind
        assert b"%%EOF" in one[-2048:], kind
        assert one != data or kind == "xref", kind  # xref: a coin per entry may leave all as they were
    assert mutate(data, "flip", "sha", 3) != mutate(data, "flip", "sha", 4)


def test_the_corpus_is_rebuilt_from_a_local_folder_with_one_entry_per_distinct_pdf(tmp_path):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.pdf").write_bytes(utf8_cmap_pdf("first"))
    (src / "sub" / "copy.PDF").write_bytes(utf8_cmap_pdf("first"))
    (src / "sub" / "b.pdf").write_bytes(utf8_cmap_pdf("second"))
    (src / "notes.txt").write_text("not a pdf")
    rows = collect(tmp_path / "corpus", from_folder(src), workers=1)
    assert load_manifest(tmp_path / "corpus") == json.loads(json.dumps(rows))
    assert sorted(r["path"] for r in rows) == ["a.pdf", "sub/b.pdf"]
    assert rows[0]["also"] == ["local:src:sub/copy.PDF"] and all(r["pages"] == 1 for r in rows)
    assert all((tmp_path / "corpus" / r["file"]).read_bytes()[:5] == b"%PDF-" for r in rows)
