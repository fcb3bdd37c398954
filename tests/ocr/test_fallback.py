"""A rule that fails costs its block, not the paper (issue 36 item 1).

One paper typeset here with pdflatex (headings, paragraphs, two tables, two displays, a running
head, three pages); each test forces one rule family to fail on one block (or to run past its
budget) and checks, against sentences and cells written by hand from the LaTeX source, that only
that block is read as plain text, the rest of the paper as before, and that the paper's record
names the page, the rule and the reason. The defect that lost a whole 53-page report (one glyph
whose ToUnicode gives two code points) is typeset as a document of its own."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pyarrow.fs as pafs
import pytest

import ocr_ray.layout as layout
import ocr_ray.layout.blocks as blocks
import ocr_ray.layout.fallback as fallback
import ocr_ray.layout.tables as tables
from benchmarks.fulltext_real.olmocr_judge import tables as parse_tables
from ocr_ray.conversion import convert_pdf
from ocr_ray.layout import Fallbacks, compose_pages
from ocr_ray.routing import TextLayerEngine

SENTENCES = [  # one per paragraph, as the source writes them
    "The first paragraph explains why the method matters for every reader of this paper.",
    "The second paragraph describes the data we collected over three long years of work.",
    "The third paragraph closes the section with a summary of what was found in the study.",
    "The fourth paragraph on the second page discusses the limits of the approach we took.",
    "The fifth paragraph on the third page states the conclusion in a few plain words here.",
]
TABLE_A = [["Method", "Accuracy", "Recall"], ["Baseline", "71.2", "69.5"], ["Ours", "75.4", "73.2"]]
TABLE_B = [["Dataset", "Train", "Test"], ["Alpha", "1200", "300"], ["Gamma", "5400", "900"]]

PAPER = r"""
\title{A Paper That Tests Fallbacks}\author{A. Author}\date{}\maketitle
\pagestyle{myheadings}\markright{Running Head of the Paper}
\section{Introduction}

%(s0)s


%(s1)s

\begin{equation}
f(x) = x^{2} + 1
\end{equation}

%(s2)s

\begin{table}[h]\centering
\begin{tabular}{lrr}\toprule
Method & Accuracy & Recall \\ \midrule
Baseline & 71.2 & 69.5 \\
Ours & 75.4 & 73.2 \\ \bottomrule
\end{tabular}
\end{table}
\newpage
\section{Method}

%(s3)s

\begin{equation}
g(y) = y^{3} - 2
\end{equation}
\begin{table}[h]\centering
\begin{tabular}{lrr}\toprule
Dataset & Train & Test \\ \midrule
Alpha & 1200 & 300 \\
Gamma & 5400 & 900 \\ \bottomrule
\end{tabular}
\end{table}
\newpage
\section{Conclusion}

%(s4)s

"""


def _typeset(tmp: Path, body: str, preamble: str = "") -> Path:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    (tmp / "m.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs}\n" + preamble +
                               "\\begin{document}\n" + body + "\n\\end{document}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tmp, check=True,
                   capture_output=True, timeout=120)
    return tmp / "m.pdf"


@pytest.fixture(scope="module")
def paper_pages(tmp_path_factory) -> list[str]:
    import pypdfium2

    from ocr_ray.layout.pdftext import page_layout

    body = PAPER % {f"s{i}": s for i, s in enumerate(SENTENCES)}
    pdf = _typeset(tmp_path_factory.mktemp("paper"), body)
    doc = pypdfium2.PdfDocument(pdf)
    return [page_layout(doc[i]).to_json() for i in range(len(doc))]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _compose(pages: list[str]) -> tuple[list[str], list[dict]]:
    record = Fallbacks()
    out = compose_pages(list(pages), record)
    return out, record.as_records()


def _all_text_there(out: list[str]) -> None:
    text = _flat(" ".join(out))
    for sentence in SENTENCES:
        assert sentence in text
    for grid in (TABLE_A, TABLE_B):
        for row in grid:
            for cell in row:
                assert cell in text


def test_the_paper_reads_whole_with_no_fallback(paper_pages):
    out, record = _compose(paper_pages)
    assert record == []
    _all_text_there(out)
    assert [g for g in parse_tables("\n\n".join(out))] == [TABLE_A, TABLE_B]
    assert "## 1 Introduction" in out[0] and "## 2 Method" in out[1]
    assert "Running Head of the Paper" not in " ".join(out)  # furniture removed


def test_a_formula_the_maths_rule_fails_on_costs_that_formula(paper_pages, monkeypatch):
    real = blocks.display_math

    def failing(lines, *args, **kwargs):
        if any("g(y)" in ln.text for ln in lines):
            raise RuntimeError("forced")
        return real(lines, *args, **kwargs)

    monkeypatch.setattr(blocks, "display_math", failing)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(1, "math", "raised")]
    assert "$$\nf(x)=x^{2}+1" in out[0]  # the other formula still LaTeX
    assert "g(y) = y" in out[1] and "$$\ng(y)" not in out[1]  # this one its glyph text
    _all_text_there(out)


def test_a_table_the_table_rule_fails_on_costs_that_table(paper_pages, monkeypatch):
    real = tables.join_head_lines

    def failing(rows, *args, **kwargs):
        if any("Dataset" in f.text for row in rows for f in row):
            raise ValueError("forced")
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(tables, "join_head_lines", failing)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(1, "tables", "raised")]
    assert parse_tables("\n\n".join(out)) == [TABLE_A]  # the other table still a table
    _all_text_there(out)  # this one's cells as plain text


def test_a_page_whose_reading_order_fails_is_read_in_plain_rows(paper_pages, monkeypatch):
    real = blocks.xy_cut

    def failing(fragments):
        if any("fourth paragraph" in getattr(f, "text", "") for f in fragments):
            raise IndexError("forced")
        return real(fragments)

    monkeypatch.setattr(blocks, "xy_cut", failing)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(1, "order", "raised")]
    _all_text_there(out)
    assert "## 1 Introduction" in out[0] and "## 3 Conclusion" in out[2]  # other pages as before


def test_a_heading_rule_that_fails_leaves_that_line_body_text(paper_pages, monkeypatch):
    real = blocks._set_apart_level

    def failing(lines, runs, i, *args):
        if "Method" in lines[i].text and "2" in lines[i].text:
            raise KeyError("forced")
        return real(lines, runs, i, *args)

    monkeypatch.setattr(blocks, "_set_apart_level", failing)
    out, record = _compose(paper_pages)
    assert {(r["page"], r["rule"], r["reason"]) for r in record} == {(1, "headings", "raised")}
    assert "## 2 Method" not in out[1] and "2 Method" in out[1]
    assert "## 1 Introduction" in out[0]
    _all_text_there(out)


def test_a_furniture_rule_that_fails_keeps_every_line_and_the_paper(paper_pages, monkeypatch):
    monkeypatch.setattr(layout, "remove_furniture", lambda pages: 1 / 0)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(-1, "furniture", "raised")]
    assert "ZeroDivisionError" in record[0]["detail"]
    _all_text_there(out)
    assert "Running Head of the Paper" in " ".join(out)  # kept: the rule that removes it failed


def test_a_paragraph_whose_join_fails_keeps_its_lines(paper_pages, monkeypatch):
    real = blocks.join_lines

    def failing(texts, known=frozenset()):
        if any("second paragraph" in t for t in texts):
            raise AttributeError("forced")
        return real(texts, known)

    monkeypatch.setattr(blocks, "join_lines", failing)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"]) for r in record] == [(0, "paragraphs")]
    _all_text_there(out)


def test_a_rule_past_its_cpu_budget_costs_its_block(paper_pages, monkeypatch):
    real = blocks.display_math

    def spinning(lines, *args, **kwargs):
        if any("f(x)" in ln.text for ln in lines):
            while True:  # a rule stuck in a loop
                pass
        return real(lines, *args, **kwargs)

    monkeypatch.setattr(blocks, "display_math", spinning)
    monkeypatch.setattr(fallback, "BLOCK_SECONDS", 0.3)
    started = time.process_time()
    out, record = _compose(paper_pages)
    assert time.process_time() - started < 5
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(0, "math", "timeout")]
    assert "$$\ng(y)=y^{3}-2" in out[1]
    _all_text_there(out)


def _pages_row(pdf: Path, engine=None) -> dict:
    return convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(pdf)},
                       filesystem=pafs.LocalFileSystem(), engine=engine or TextLayerEngine(fallback=None))


def test_a_page_whose_positioned_text_fails_is_read_as_plain_text(tmp_path, monkeypatch):
    pdf = _typeset(tmp_path, "\n\n\\newpage\n".join(SENTENCES[:3]))
    engine = TextLayerEngine(fallback=None)
    real = engine.prepare_page
    calls = []

    def failing(page):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the text layer of this page cannot be laid out")
        return real(page)

    monkeypatch.setattr(engine, "prepare_page", failing)
    row = _pages_row(pdf, engine)
    assert row["error"] == "" and row["num_pages"] == 3
    pages = row["markdown"].split("\n\n---\n\n")
    assert [SENTENCES[i] in _flat(pages[i]) for i in range(3)] == [True, True, True]
    assert json.loads(row["engine_pages"]) == ["text-layer", "text-layer:plain", "text-layer"]
    assert [(f["page"], f["rule"], f["reason"]) for f in json.loads(row["fallbacks"])] == [(1, "page", "plain")]


def test_a_page_whose_positioned_text_runs_past_its_budget_is_read_as_plain_text(tmp_path, monkeypatch):
    import ocr_ray.pdf_pages as pdf_pages

    pdf = _typeset(tmp_path, "\n\n\\newpage\n".join(SENTENCES[:2]))
    engine = TextLayerEngine(fallback=None)
    real = engine.prepare_page
    calls = []

    def spinning(page):
        calls.append(1)
        if len(calls) == 1:
            _spin()
        return real(page)

    monkeypatch.setattr(engine, "prepare_page", spinning)
    monkeypatch.setattr(pdf_pages, "PAGE_SECONDS", 0.3)
    row = _pages_row(pdf, engine)
    assert row["error"] == ""
    assert json.loads(row["engine_pages"]) == ["text-layer:plain", "text-layer"]
    assert SENTENCES[0] in _flat(row["markdown"]) and SENTENCES[1] in _flat(row["markdown"])


def test_a_page_pdfium_cannot_load_costs_that_page(tmp_path, monkeypatch):
    import ocr_ray.pdf_pages as pdf_pages

    pdf = _typeset(tmp_path, "\n\n\\newpage\n".join(SENTENCES[:3]))
    real_open = pdf_pages._open_pdf

    class OnePageBroken:
        def __init__(self, doc):
            self.doc = doc

        def __len__(self):
            return len(self.doc)

        def __getitem__(self, i):
            if i == 1:
                raise RuntimeError("PDFium: page object cannot be loaded")
            return self.doc[i]

        def close(self):
            self.doc.close()

    monkeypatch.setattr(pdf_pages, "_open_pdf", lambda data: OnePageBroken(real_open(data)))
    row = _pages_row(pdf)
    assert row["error"] == "" and row["num_pages"] == 3
    pages = row["markdown"].split("\n\n---\n\n")
    assert SENTENCES[0] in _flat(pages[0]) and pages[1] == "" and SENTENCES[2] in _flat(pages[2])
    assert json.loads(row["fallbacks"]) == [{"page": 1, "rule": "page", "reason": "failed",
                                             "detail": "the page could not be read"}]
    assert json.loads(row["engine_pages"])[1] == "text-layer:failed"


def test_a_glyph_of_two_code_points_in_a_formula_loses_nothing(tmp_path):
    """The glyph that lost a whole 53-page report: its font's ToUnicode maps one glyph to two maths
    letters (here \\beta to U+1D6FD U+1D6FE, as pdfTeX writes with \\pdfglyphtounicode); the
    formula's letters sharing one box became one glyph of two code points, and
    ``unicodedata.name`` raised a TypeError out of the paper."""
    preamble = ("\\input{glyphtounicode}\\pdfgentounicode=1\n"
                "\\pdfglyphtounicode{beta}{D835 DEFD D835 DEFE}\n")
    body = (f"{SENTENCES[0]}\n\\begin{{equation}}\nf(x) = \\beta x + y\n\\end{{equation}}\n{SENTENCES[1]}\n"
            f"\\begin{{equation}}\ng(x) = x^{{2}} + 1\n\\end{{equation}}\n{SENTENCES[2]}\n")
    pdf = _typeset(tmp_path, body, preamble)
    row = convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=TextLayerEngine(fallback=None))
    assert row["error"] == ""
    assert json.loads(row["fallbacks"]) == []
    markdown = row["markdown"]
    for sentence in SENTENCES[:3]:
        assert sentence in _flat(markdown)
    assert "$$\nf(x)=\\beta \\gamma x+y" in markdown  # what the PDF says the glyph is
    assert "$$\ng(x)=x^{2}+1" in markdown


def _figure_page() -> str:
    """A page written by hand: a paragraph, a picture with two labels under it, a paragraph."""
    from ocr_ray.layout.model import Fragment, PageLayout, Rule

    page = PageLayout(612, 792)
    page.fragments = [Fragment(72, 100, 540, 110, SENTENCES[0], 10.0),
                      Fragment(150, 330, 190, 340, "Panel A", 9.0), Fragment(400, 330, 440, 340, "Panel B", 9.0),
                      Fragment(72, 400, 540, 410, SENTENCES[1], 10.0)]
    page.images = [Rule(100, 150, 250, 320), Rule(350, 150, 500, 320)]
    return page.to_json()


def test_a_figure_grid_rule_that_fails_keeps_the_labels_as_text(monkeypatch):
    monkeypatch.setattr(layout, "extract_figure_grids", lambda page: [][1])
    out, record = _compose([_figure_page()])
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(0, "figures", "raised")]
    text = _flat(out[0])
    assert SENTENCES[0] in text and SENTENCES[1] in text and "Panel A" in text and "Panel B" in text


def test_a_page_whose_block_rules_fail_is_read_in_plain_rows(paper_pages, monkeypatch):
    real = blocks._runs

    def failing(lines):
        if any("fourth paragraph" in ln.text for ln in lines):
            raise OverflowError("forced")
        return real(lines)

    monkeypatch.setattr(blocks, "_runs", failing)
    out, record = _compose(paper_pages)
    assert [(r["page"], r["rule"], r["reason"]) for r in record] == [(1, "blocks", "raised")]
    _all_text_there(out)
    assert "## 1 Introduction" in out[0] and "## 3 Conclusion" in out[2]


def _spin():
    while True:
        pass


def test_an_inner_timeout_costs_the_inner_block_and_the_outer_rule_goes_on():
    record = Fallbacks()
    with fallback.recording(record):
        out = fallback.guarded("page", lambda: ["start", fallback.guarded("math", _spin, lambda: "plain", seconds=0.2),
                                                "end"], lambda: ["page plain"], seconds=30)
    assert out == ["start", "plain", "end"]
    assert [(r["rule"], r["reason"]) for r in record.as_records()] == [("math", "timeout")]


def test_an_outer_timeout_is_not_swallowed_by_an_inner_guard():
    record = Fallbacks()
    with fallback.recording(record):
        out = fallback.guarded("page", lambda: fallback.guarded("math", _spin, lambda: "plain", seconds=30),
                               lambda: "page plain", seconds=0.2)
    assert out == "page plain"
    assert [(r["rule"], r["reason"]) for r in record.as_records()] == [("page", "timeout")]
    assert fallback._BUDGETS.stack == [] and fallback._BUDGETS.armed is None


def test_a_page_the_ocr_engine_fails_on_keeps_its_text_layer_and_the_paper(tmp_path):
    """An engine whose runtime rejects one page (raises on any batch holding it): the batch is read
    page by page, that page keeps its text layer (route ``text-layer:ocr_failed``), the others the
    engine's reading, and the record names the page."""
    from dataclasses import dataclass

    from ocr_ray.engine_base import Engine

    @dataclass
    class Picky(Engine):
        name: str = "picky"

        def process_batch(self, pages):
            if any(p["page_index"] == 1 for p in pages):
                raise RuntimeError("the runtime rejects this image")
            return [f"read by picky: page {p['page_index']}" for p in pages]

    pdf = _typeset(tmp_path, "\n\n\\newpage\n".join(SENTENCES[:3]))
    row = convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=Picky())
    assert row["error"] == ""
    pages = row["markdown"].split("\n\n---\n\n")
    assert pages[0] == "read by picky: page 0" and pages[2] == "read by picky: page 2"
    assert SENTENCES[1] in _flat(pages[1])  # its text layer
    assert json.loads(row["engine_pages"]) == ["picky", "text-layer:ocr_failed", "picky"]
    assert [(f["page"], f["rule"], f["reason"]) for f in json.loads(row["fallbacks"])] == [(1, "ocr", "raised")]


def test_an_engine_that_fails_on_every_page_is_broken_and_says_so(tmp_path):
    """Not a page's fault: the paper is an error row naming the engine's error (the two-stage
    pipeline fails the run: tests/ocr/test_crash_isolation.py), never a paper of text-layer
    stand-ins that hides a broken engine."""
    from dataclasses import dataclass

    from ocr_ray.engine_base import Engine

    @dataclass
    class Broken(Engine):
        name: str = "broken"

        def process_batch(self, pages):
            raise ValueError("broken engine batch")

    pdf = _typeset(tmp_path, "\n\n\\newpage\n".join(SENTENCES[:2]))
    row = convert_pdf({"task_index": 0, "forum_id": "f", "pdf_path": str(pdf)},
                      filesystem=pafs.LocalFileSystem(), engine=Broken())
    assert row["error"] == "ValueError: broken engine batch" and row["markdown"] == ""


def test_a_page_of_tens_of_thousands_of_fragments_is_read_in_plain_rows_without_trying_the_cut():
    """A font's glyph chart (pdfcpu's Unifont sample: 57,199 fragments on one page) took the
    reading order more than 10 CPU seconds before its budget ran out; past ORDER_MAX_FRAGMENTS the
    page is read in plain rows at once, and the record says why."""
    from ocr_ray.layout.model import Fragment, PageLayout

    page = PageLayout(612, 792)
    rows, cols = 150, 150  # 22,500 glyphs in a grid, each a fragment
    page.fragments = [Fragment(20 + 3.8 * c, 20 + 5 * r, 23 + 3.8 * c, 24 + 5 * r, f"g{r}x{c}", 3.0)
                      for r in range(rows) for c in range(cols)]
    started = time.process_time()
    out, record = _compose([page.to_json()])
    assert time.process_time() - started < 10  # (the paragraph join was quadratic too: 7 s of it)
    assert [(r["rule"], r["reason"]) for r in record] == [("order", "oversize")]
    words = out[0].split()
    assert words.index("g1x10") < words.index("g1x100") < words.index("g2x10")  # rows, left to right
    # (the furniture rule, which runs, takes the grid's outer columns for a margin)
    assert len(set(words) & {f"g{r}x{c}" for r in range(rows) for c in range(cols)}) >= 0.97 * rows * cols
