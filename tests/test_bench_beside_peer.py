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


def test_part_figures_score_each_part_on_its_own_pages_and_types(tmp_path):
    docs = []
    for stem in ("a", "b"):
        (tmp_path / f"{stem}.pdf").write_bytes(b"%PDF " + stem.encode())
        docs.append((stem, tmp_path / f"{stem}.pdf"))

    def verdict(pdf, kind, passed, n):
        return {"id": f"{pdf}_{kind}_{n}", "pdf": f"{pdf}.pdf", "type": kind, "passed": passed}

    ours = [verdict("a", "present", True, 1), verdict("a", "present", False, 2), verdict("b", "table", True, 1),
            verdict("a", "baseline", False, 1)]
    peer = [verdict("a", "present", True, 1), verdict("a", "present", True, 2), verdict("b", "table", False, 1),
            verdict("a", "baseline", True, 1)]
    verdicts = {"ours": {"tests": ours}, peers.name("2.0"): {"tests": peer}}
    runs = {"ours": {"errors": {"b": "boom"}, "seconds": 3.0}}
    figs = beside_peer.part_figures(
        {"dev": ("d_", {"a"}), "frozen": ("f_", {"b"})}, docs, runs, verdicts, None, engine="ours", release="2.0",
        types=("present", "table"), describe=lambda part, pages, digest: f"{part}:{pages}",
        fields=lambda part: {"part": part}, goal="g")
    got = {f["metric"]: (f["value"], f["baseline"], f["tests"], f["set"], f["part"]) for f in figs}
    # the baseline test olmocr adds is left out; each part holds its own pages only (by hand)
    assert got["d_ours"] == (0.5, 1.0, 2, "dev:1", "dev") and got["f_ours"] == (1.0, 0.0, 1, "frozen:1", "frozen")
    assert got["d_ours_present"] == (0.5, 1.0, 2, "dev:1", "dev") and "d_ours_table" not in got
    assert got[f"d_{peers.name('2.0')}"][:3] == (1.0, 1.0, 2)
    ours_dev = next(f for f in figs if f["metric"] == "d_ours")
    assert ours_dev["errors"] is None and ours_dev["seconds"] == 3.0 and ours_dev["goal"] == "g"
    assert next(f for f in figs if f["metric"] == "f_ours")["errors"] == {"b": "boom"}
