"""The page-set benches' shared run (benchmarks/fulltext_real/beside_peer.py): ours and the peer on the
same PDFs, a peer that cannot run named instead of failing the figures, every page and verdict kept; and
the per-type figures against the peer's shares (truth written by hand)."""
from __future__ import annotations

import json
from pathlib import Path

from benchmarks.fulltext_real import beside_peer, olmocr_bench, peers


def test_a_peer_that_cannot_run_is_named_and_the_run_is_kept(tmp_path, monkeypatch):
    docs = [("a", tmp_path / "a.pdf"), ("b", tmp_path / "b.pdf")]

    def no_pypi(release):
        raise OSError("no index")

    monkeypatch.setattr(peers, "ensure", no_pypi)
    monkeypatch.setattr(olmocr_bench, "score", lambda root, pages: {name: {"tests": [], "errors": []} for name in pages})
    last = tmp_path / "var" / "last.json"
    runs, verdicts, skipped = beside_peer.measure(tmp_path, docs, "ours", lambda d: {"pages": {s: ["text"] for s, _ in d}},
                                                  "2.0", last)
    assert skipped == "OSError: no index"
    assert set(runs) == {"ours"} and runs["ours"]["pages"] == {"a": ["text"], "b": ["text"]}
    assert json.loads(last.read_text()) == {"runs": runs, "verdicts": verdicts, "skipped": skipped}


def test_the_peer_runs_on_the_same_pdfs_in_their_order(tmp_path, monkeypatch):
    docs = [("a", Path("a.pdf")), ("b", Path("b.pdf"))]
    seen = []
    monkeypatch.setattr(peers, "ensure", lambda release: f"venv-{release}")
    monkeypatch.setattr(peers, "run", lambda venv, pdfs: seen.append((venv, pdfs)) or [{"pages": [p.stem]} for p in pdfs])
    monkeypatch.setattr(olmocr_bench, "score", lambda root, pages: pages)
    runs, verdicts, skipped = beside_peer.measure(tmp_path, docs, "ours", lambda d: {"pages": {}}, "2.0",
                                                  tmp_path / "last.json")
    assert seen == [("venv-2.0", [Path("a.pdf"), Path("b.pdf")])] and skipped is None
    assert runs[peers.name("2.0")]["pages"] == {"a": ["a"], "b": ["b"]}


def test_type_figures_are_the_shares_of_each_type_against_the_peers():
    ours = {"by_type": {"absent": 0.75, "present": 1.0, "table": None}, "tests_by_type": {"absent": 4, "present": 2, "table": 0}}
    peer = {"by_type": {"absent": 0.25, "present": 1.0, "table": None}, "tests_by_type": {"absent": 4, "present": 2, "table": 0}}
    figs = beside_peer.type_figures("m", ours, peer, ("absent", "present", "table"), part="dev")
    assert [(f["metric"], f["value"], f["baseline"], f["ratio"], f["tests"], f["part"]) for f in figs] == [
        ("m_absent", 0.75, 0.25, 3.0, 4, "dev"), ("m_present", 1.0, 1.0, 1.0, 2, "dev")]
    assert [f["baseline"] for f in beside_peer.type_figures("m", ours, None, ("absent",))] == [None]
