"""Per-page tests of the real-paper set (benchmarks/fulltext_real/pages.py) on a document typeset here
with pdflatex: LNCS-like running heads that alternate by page parity (authors on even pages, the
title on odd ones) and page numbers in the heads. Each test must sit on the page that prints its
text; the title on page 1 is the paper's, not furniture."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.fulltext_real import derive, furniture_truth, latex, pages

WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma")


def _paragraph(i: int) -> str:
    # distinct sentences (no two pages share one) made of plain words only
    return " ".join(f"Paragraph {WORDS[i % 10]} number {i} keeps {WORDS[(i * 3) % 10]} words in "
                    f"{WORDS[(i * 7) % 10]} order for sentence {j}." for j in range(6))


SOURCE = (r"""\documentclass[twoside]{article}
\usepackage{fancyhdr}
\pagestyle{fancy}\fancyhf{}
\fancyhead[LE]{\thepage\quad Ada Writer and Bo Reader}
\fancyhead[RO]{Parity Heads in Practice\quad\thepage}
\renewcommand{\headrulewidth}{0pt}
\begin{document}
\title{Parity Heads in Practice}\author{Ada Writer}\date{}
\maketitle\thispagestyle{empty}
""" + "\n\n".join(_paragraph(i) for i in range(40)) + "\n\\end{document}\n")


@pytest.fixture(scope="module")
def typeset(tmp_path_factory) -> tuple[Path, str]:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    tmp = tmp_path_factory.mktemp("parity")
    (tmp / "p.tex").write_text(SOURCE)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "p.tex"], cwd=tmp, check=True,
                   capture_output=True, timeout=120)
    return tmp / "p.pdf", SOURCE


def test_heads_of_both_parities_and_page_numbers_are_absent_tests_on_their_page(typeset):
    pdf, tex = typeset
    furniture, why = furniture_truth.witness(pdf.parent, "p.tex")
    assert why is None
    dropped: list[dict] = []
    tests = pages.paper_tests("parity", latex.strip_comments(tex), [], pdf, furniture, dropped)
    absent = {(t["page"], t["text"]) for t in tests if t["type"] == "absent"}
    n = len(pages.read_pages(pdf))
    assert n >= 4
    for page in range(2, n + 1):
        head = "Ada Writer and Bo Reader" if page % 2 == 0 else "Parity Heads in Practice"
        assert (page, head) in absent, page
    # the title on page 1 (no head there: \thispagestyle{empty}) is never an absent test
    assert not any(p == 1 and "Parity" in text for p, text in absent)
    # page numbers sit in the heads; each number test is on its own page
    numbers = {(t["page"], t["text"]) for t in tests if t["type"] == "absent" and t["text"].isdigit()}
    assert numbers and all(str(p) == text for p, text in numbers)


def test_first_and_last_paragraph_of_each_page_are_tested_on_that_page(typeset):
    pdf, tex = typeset
    tests = pages.paper_tests("parity", latex.strip_comments(tex), [], pdf)
    read = pages.read_pages(pdf)
    for page in read:
        mine = [t for t in tests if t["page"] == page.number and t["type"] == "present"]
        assert len(mine) >= 2, page.number
        for t in mine:  # each text is printed on the page the test names, on no other
            assert pages.letters(t["text"]) in pages.letters(page.text)
            assert all(pages.letters(t["text"]) not in pages.letters(o.text) for o in read if o is not page)
    orders = [t for t in tests if t["type"] == "order"]
    assert orders and all(t["pdf"] == "p.pdf" and t["id"].startswith("parity-order-") for t in orders)
    assert len({t["id"] for t in tests}) == len(tests)


def test_a_sentence_split_by_the_page_break_is_no_test():
    one = pages.Page(1, 800.0, [], "First page text ends with a sentence that runs over the")
    two = pages.Page(2, 800.0, [], "break of the page and ends here. Then a sentence wholly on page two follows.")
    sentences = ["First page text ends with a sentence that runs over the break of the page and ends here.",
                 "Then a sentence wholly on page two follows."]
    tests = pages.first_last_tests(sentences, [one, two])
    assert tests == [{"type": "present", "page": 2, "text": sentences[1]}]


def test_plain_fragments_cut_sentences_at_citations():
    body = derive.document_body(r"\begin{document}Reading order matters for models that read long papers "
                                r"\citep{x}, and it fails on two columns of offset lines very often.\end{document}")
    assert derive.plain_fragments(body) == ["Reading order matters for models that read long papers",
                                            "and it fails on two columns of offset lines very often."]


def test_a_sentence_is_placed_only_where_it_is_printed_with_its_case():
    """fvtls: the conclusion's "The main proof technique used is ..." was placed on page 2, which prints
    "Note that the main proof technique used is ..." (olmocr's present test is case-sensitive, so
    the test could never pass there); its own page split it over a line the PDF text reads apart."""
    sentence = "The main proof technique used is structural induction on reachable states."
    one = pages.Page(1, 800.0, [], "Note that the main proof technique used is structural induction on reachable states.")
    assert pages.first_last_tests([sentence], [one]) == []
    assert pages.place([{"type": "present", "text": sentence}], [one]) == []
    two = pages.Page(2, 800.0, [], "To conclude. The main proof technique used is structural induction on reachable states.")
    assert pages.first_last_tests([sentence], [one, two]) == [{"type": "present", "page": 2, "text": sentence}]


def test_a_page_number_printed_at_any_line_end_gets_no_last_n_test():
    """cryoem-orientation p8: the page number "8" is printed in the prose ("a resolution of 8 to", the
    left column's last line), so olmocr's absent test may only read the page's last characters
    (``last_n``); but a right output may end with the left column's last line (a float or the right
    column read before it, a footnote, an equation number...): no such test, whichever line pdfium
    puts last."""
    def page(number: int, middle: str) -> pages.Page:
        word = WORDS[number]  # no line repeats on another page: none is a running head
        # (bottom, left, right, text): the left column's last line above a figure, the right column
        # down to the page's foot
        texts = [(700, 72, 540, f"The introduction says {word} about the method here."), (400, 72, 300, middle),
                 (150, 320, 540, f"Right column text continues here with {word} words."),
                 (130, 320, 540, f"More right column text at the bottom of the {word} page."), (50, 300, 310, str(number))]
        lines = [pages.Line(y + 10, y, x0, t, [t], x1) for y, x0, x1, t in texts]
        return pages.Page(number, 800.0, lines, " ".join(t[-1] for t in texts))

    texts = ["a plain line", "an initial volume with a resolution of 2 to", "a plain line",
             "the 4 of us and then a long continuation of this line", "a plain line"]
    boxes = [furniture_truth.Furniture(n, str(n), "foot", [str(n)]) for n in range(1, 6)]
    found, dropped = pages.furniture_tests([page(n, t) for n, t in enumerate(texts, 1)], boxes)
    assert {"page": 2, "text": "2", "reason": "number-in-prose", "where": "foot"} in dropped
    assert {"type": "absent", "page": 1, "text": "1"} in found and {"type": "absent", "page": 3, "text": "3"} in found
    assert not [t for t in found if t["page"] == 2], found
    # a number inside a column, not at its end: the page's end is still tested
    assert {"type": "absent", "page": 4, "text": "4", "last_n": 9} in found, found


# Issue 36 item 4: absent tests from what TeX set in the head and foot boxes, not from the PDF.
MARKS = r"""\documentclass[twoside]{article}
\pagestyle{headings}
\begin{document}
\markboth{Efficient Office Workflows}{Right Mark Of Chapters}
""" + "\n\n".join(_paragraph(i) for i in range(30)) + r"""
\thispagestyle{plain}
""" + "\n\n".join(_paragraph(i) for i in range(30, 45)) + "\n\\end{document}\n"


def _pdflatex(tmp: Path, name: str, source: str) -> Path:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    (tmp / name).write_text(source)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", name], cwd=tmp, capture_output=True, timeout=120)
    return tmp / name.replace(".tex", ".pdf")


def test_the_truth_is_what_tex_set_in_each_head_and_foot_box(tmp_path):
    """article's `headings` style: \\markboth's left mark on even pages, the right mark on odd ones,
    each beside the page number. The ligatures of "Efficient Office" come back as letters."""
    pdf = _pdflatex(tmp_path, "m.tex", MARKS)
    furniture, why = furniture_truth.witness(tmp_path, "m.tex")
    assert why is None
    n = len(pages.read_pages(pdf))
    assert n >= 3 and {f.page for f in furniture} == set(range(1, n + 1))
    heads = {f.page: f.parts for f in furniture if f.where == "head"}
    # headings: even pages "<n> \hfil left mark", odd pages "right mark \hfil <n>", apart by fil glue
    assert heads[2] == ["2", "Efficient Office Workflows"], heads
    assert heads[3] == ["Right Mark Of Chapters", "3"], heads
    tests = pages.furniture_tests(pages.read_pages(pdf), furniture)[0]
    assert {"type": "absent", "page": 2, "text": "Efficient Office Workflows"} in tests
    assert {"type": "absent", "page": 3, "text": "Right Mark Of Chapters"} in tests


def test_a_thispagestyle_page_gets_its_own_box_and_a_page_number_in_the_foot(tmp_path):
    pdf = _pdflatex(tmp_path, "m.tex", MARKS)
    furniture, _ = furniture_truth.witness(tmp_path, "m.tex")
    plain = [f for f in furniture if f.where == "foot" and f.parts]  # \thispagestyle{plain}: number in the foot
    assert len(plain) == 1 and plain[0].parts == [plain[0].thepage]
    page = plain[0].page
    assert not [f for f in furniture if f.where == "head" and f.page == page and f.parts]
    read = pages.read_pages(pdf)
    tests, dropped = pages.furniture_tests(read, furniture)
    # the number is a test, unless the page's prose ends with it too ("... for sentence 5." above
    # the foot's "5"): then no window of olmocr can tell them apart and it is dropped with that reason
    ends = read[page - 1].lines[-2].text.rstrip(".").endswith(str(page))
    assert (ends and {"page": page, "text": str(page), "reason": "number-in-prose", "where": "foot"} in dropped) or (
        not ends and any(t["page"] == page and t["text"] == str(page) for t in tests))


def test_a_head_the_body_prints_too_is_dropped_with_its_reason(tmp_path):
    """The running title repeats the title printed on page 2's body (\\newpage after it): no output
    can leave it out there, so it is no test; on the other pages it is."""
    source = (r"""\documentclass{article}
\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}\fancyhead[C]{Learning Plain Heads}\fancyfoot[C]{\thepage}
\begin{document}
""" + _paragraph(1) + "\n\\newpage\n\\section*{Learning Plain Heads}\n" +
              "\n\n".join(_paragraph(i) for i in range(2, 20)) + "\n\\end{document}\n")
    pdf = _pdflatex(tmp_path, "h.tex", source)
    furniture, _ = furniture_truth.witness(tmp_path, "h.tex")
    tests, dropped = pages.furniture_tests(pages.read_pages(pdf), furniture)
    assert {"page": 2, "text": "Learning Plain Heads", "reason": "printed-twice", "where": "head"} in dropped
    assert {"type": "absent", "page": 1, "text": "Learning Plain Heads"} in tests
    assert {"type": "absent", "page": 3, "text": "Learning Plain Heads"} in tests


def test_a_class_that_replaces_the_output_routine_gives_no_truth(tmp_path):
    source = (r"""\documentclass{article}
\makeatletter\AtBeginDocument{\def\@outputpage{\shipout\box\@outputbox}}\makeatother
\begin{document}""" + _paragraph(1) + "\\end{document}\n")
    _pdflatex(tmp_path, "o.tex", source)
    assert furniture_truth.witness(tmp_path, "o.tex") == ([], "patch-not-applied")


def test_the_witness_run_leaves_the_typeset_pdf_untouched(tmp_path):
    pdf = _pdflatex(tmp_path, "m.tex", MARKS)
    before = pdf.read_bytes()
    furniture_truth.witness(tmp_path, "m.tex")
    assert pdf.read_bytes() == before and not (tmp_path / furniture_truth.HOOK_NAME).exists()


def test_dashes_and_quotes_of_a_head_come_back_as_the_page_prints_them(tmp_path):
    """acmart's venue head "SIGCOMM '21, August 23--28, 2021": TeX's -- and quote ligatures are read
    back as the characters the PDF prints (olmocr folds them to ASCII), not as the source's."""
    source = (r"""\documentclass{article}
\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}\fancyhead[L]{SIGCOMM '21, August 23--28, ``Virtual''}
\begin{document}""" + _paragraph(1) + "\\end{document}\n")
    _pdflatex(tmp_path, "q.tex", source)
    furniture, _ = furniture_truth.witness(tmp_path, "q.tex")
    assert furniture[0].parts == ["SIGCOMM \u201921, August 23\u201328, \u201cVirtual\u201d"]


def test_a_sentence_across_the_column_break_is_a_present_test_on_its_page(tmp_path):
    """Two columns: the source sentence printed from the left column's last line into the right
    column's first line is a present test on that page (an output reading the columns apart fails)."""
    source = (r"""\documentclass[twocolumn]{article}
\begin{document}
""" + "\n\n".join(_paragraph(i) for i in range(12)) + "\n\\end{document}\n")
    pdf = _pdflatex(tmp_path, "c.tex", source)
    read = pages.read_pages(pdf)
    fragments = derive.plain_fragments(derive.document_body(source))
    tests = pages.column_break_tests(fragments, read)
    assert tests, [(p.number, len(p.lines)) for p in read]
    for test in tests:
        page = read[test["page"] - 1]
        key = pages.letters(test["text"], keep_case=True)
        # printed by neither column alone, but by the left column followed by the right one
        mid = (min(r[2] for r in page.rects) + max(r[3] for r in page.rects)) / 2
        ordered = sorted(page.rects, key=lambda r: (-r[0], r[2]))
        columns = [pages.letters(" ".join(r[4] for r in ordered if r[3] < mid), keep_case=True),
                   pages.letters(" ".join(r[4] for r in ordered if r[2] > mid), keep_case=True)]
        assert key not in columns[0] and key not in columns[1] and key in columns[0] + columns[1]
        assert test["text"] in fragments


def test_a_head_that_prints_today_is_read_with_the_builds_date(tmp_path):
    """matheron-enkf (jmlr): the head "Submitted to arXiv on <\\today>" was read on the witness run's
    own date, not the build's (SOURCE_DATE_EPOCH), so the page did not print it."""
    source = (r"""\documentclass{article}
\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}\fancyhead[L]{Submitted on \today}
\begin{document}""" + _paragraph(1) + "\\end{document}\n")
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    (tmp_path / "d.tex").write_text(source)
    env = {"SOURCE_DATE_EPOCH": "1700000000", "FORCE_SOURCE_DATE": "1"}
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "d.tex"], cwd=tmp_path, capture_output=True,
                   timeout=120, env={**os.environ, **env})
    furniture, _ = furniture_truth.witness(tmp_path, "d.tex", env=env)
    assert furniture[0].parts == ["Submitted on November 14, 2023"]
    tests, dropped = pages.furniture_tests(pages.read_pages(tmp_path / "d.pdf"), furniture)
    assert {"type": "absent", "page": 1, "text": "Submitted on November 14, 2023"} in tests and not dropped
