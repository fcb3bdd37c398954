"""The real-scans set (benchmarks/fulltext_realscans): its manifest and hand-written tests agree, and
the build cuts the recorded page out of a source found by its sha256 (a PDF made here stands in for
the robustness corpus), leaves a source with other bytes out, and the bench says when nothing is there."""
from __future__ import annotations

import hashlib
import json

import pypdfium2 as pdfium

from benchmarks import bench_fulltext_realscans
from benchmarks.fulltext_realscans import build
from tests.ocr.conftest import recorded_and_other_sources

_TYPES = {"present", "absent", "order", "table"}


def test_every_page_has_hand_written_tests_in_olmocr_bench_form_and_a_part():
    pages = build.pages()
    assert len({p["id"] for p in pages}) == len(pages) >= 20
    assert {p["part"] for p in pages} == {"dev", "frozen"}
    assert all(p["repo"] != "allenai/olmocr" for p in pages)  # its bench data is held out
    for page in pages:
        tests = build.tests(page["id"])
        assert tests, page["id"]
        for t in tests:
            assert t["pdf"] == f"{page['id']}.pdf" and t["page"] == 1 and t["type"] in _TYPES, t
            assert t["id"].startswith(page["id"]) and ({"text"} <= set(t) or {"before", "after"} <= set(t)
                                                       or "cell" in t), t


def test_the_build_cuts_the_recorded_page_and_refuses_other_bytes(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    digest = recorded_and_other_sources(corpus / "pdfs")
    entries = [{"id": "p", "part": "dev", "repo": "o/r", "commit": "c", "path": "a.pdf", "page": 2, "kind": "k",
                "sha256": digest},
               {"id": "q", "part": "frozen", "repo": "o/r", "commit": "c", "path": "b.pdf", "page": 0, "kind": "k",
                "sha256": "0" * 64}]
    monkeypatch.setattr(build, "pages", lambda: entries)
    monkeypatch.setattr(build, "HERE", tmp_path)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "p.jsonl").write_text(json.dumps({"pdf": "p.pdf", "page": 1, "id": "p-1", "type": "present",
                                                            "text": "page 2"}) + "\n")
    manifest = build.build(tmp_path / "out", corpus)
    assert [p["id"] for p in manifest["pages"]] == ["p"] and manifest["missing"] == ["q"]
    doc = pdfium.PdfDocument(str(tmp_path / "out" / "pdfs" / "p.pdf"))
    assert len(doc) == 1 and doc[0].get_textpage().get_text_range().strip() == "page 2"


def test_the_bench_says_when_there_is_no_set(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REVIEWBENCH_REALSCANS_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("REVIEWBENCH_ROBUSTNESS_DIR", str(tmp_path / "nothing"))
    assert bench_fulltext_realscans.run() == []
    assert "nothing measured" in capsys.readouterr().out


def test_an_image_source_is_collected_from_its_mirror_and_wrapped_as_a_one_page_scan(tmp_path, monkeypatch):
    """OCR projects keep their test pages as images: ``collect`` takes the recorded commit's bytes from
    the repository's mirror, the build wraps the image as a one-page image-only PDF the size the scan
    was at its resolution (300 dpi assumed when it records a screen's 72)."""
    import subprocess

    from PIL import Image

    repo = tmp_path / "mirrors" / "o+r" / "repo"
    repo.mkdir(parents=True)
    Image.new("L", (600, 300), 255).save(repo / "page.png", dpi=(150, 150))
    Image.new("L", (300, 300), 255).save(repo / "screen.png", dpi=(72, 72))
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "pages"], check=True)
    commit = subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    entries = [{"id": i, "part": "dev", "repo": "o/r", "commit": commit, "path": path, "page": 0, "kind": "k",
                "sha256": hashlib.sha256((repo / path).read_bytes()).hexdigest()}
               for i, path in (("p", "page.png"), ("s", "screen.png"))]
    entries.append({**entries[0], "id": "q", "sha256": "0" * 64})  # other bytes than the mirror's
    monkeypatch.setattr(build, "pages", lambda: entries)
    monkeypatch.setattr(build, "HERE", tmp_path)
    (tmp_path / "tests").mkdir()
    for i in "psq":
        (tmp_path / "tests" / f"{i}.jsonl").write_text("")
    sources = tmp_path / "sources"
    assert build.collect(tmp_path / "mirrors", sources) == ["q"]
    manifest = build.build(tmp_path / "out", tmp_path / "no-corpus", sources)
    assert [p["id"] for p in manifest["pages"]] == ["p", "s"] and manifest["missing"] == ["q"]
    page = pdfium.PdfDocument(str(tmp_path / "out" / "pdfs" / "p.pdf"))[0]
    assert [round(v) for v in page.get_size()] == [288, 144]  # 600 x 300 px at 150 dpi
    assert page.get_textpage().count_chars() == 0
    screen = pdfium.PdfDocument(str(tmp_path / "out" / "pdfs" / "s.pdf"))[0]
    assert [round(v) for v in screen.get_size()] == [72, 72]  # 300 px taken at 300 dpi, not 72
