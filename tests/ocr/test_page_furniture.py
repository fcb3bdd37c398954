"""Page furniture and page breaks on typeset documents (pdflatex here, read by the text layer):
running heads that alternate by page parity, furniture of a one-page input found by position and
pattern, and every line kept on the page it is printed on (issue 27)."""

from __future__ import annotations

import random
import re

import pytest

from ocr_ray.layout import compose_pages
from ocr_ray.layout.furniture import ISOLATION, remove_furniture
from tests.ocr.conftest import typeset_layouts

AUTHORS = "A. Author and B. Writer"
TITLE = "Running Heads by Parity in Typeset Papers"
# words without f-ligatures: the text layer's tokens and the markdown's then compare letter for letter
WORDS = ("model data layer training signal noise gradient sample batch kernel network review paper text "
         "column margin corpus token metric score measure vector matrix bound proof").split()

# LNCS sets the page number beside the head (`\rlap{\thepage}\hspace\headlineindent` on even pages);
# fancyhdr with twoside puts heads and numbers in the outer corners. The title page has no head.
HEADS = {
    "lncs": "\\fancyhead[LE]{\\small\\thepage\\qquad " + AUTHORS + "}"
            "\\fancyhead[RO]{\\small " + TITLE + "\\qquad\\thepage}",
    "fancyhdr": "\\fancyhead[LE]{\\small " + AUTHORS + "}\\fancyhead[RO]{\\small " + TITLE + "}"
                "\\fancyfoot[LE,RO]{\\thepage}",
}


def _sentence(n: int) -> str:
    r = random.Random(n)
    return f"Sentence {n} " + " ".join(r.choice(WORDS) for _ in range(r.randint(10, 18))) + "."


def _paper(style: str, paragraphs: int) -> str:
    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(paragraphs))
    return ("\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}" + HEADS[style] +
            "\n\\thispagestyle{empty}\n\\section{Introduction}\n" + text)


@pytest.mark.parametrize(("style", "paragraphs"), [("lncs", 14), ("fancyhdr", 14), ("lncs", 8)])
def test_running_heads_that_alternate_by_page_parity_are_removed(tmp_path, style, paragraphs):
    """Authors on even pages, title on odd ones: each head is on fewer than half of the pages, and
    on a three-page paper each is on one page only (LNCS: its page number beside it shows it)."""
    pages = typeset_layouts(tmp_path, "fancyhdr", _paper(style, paragraphs), options="twoside")
    assert len(pages) == (5 if paragraphs == 14 else 3)
    removed = remove_furniture(pages)
    assert removed[0] == []  # the title page: no head, nothing removed
    for n, gone in enumerate(removed[1:], start=2):
        assert sorted(f.text for f in gone) == sorted([str(n), AUTHORS if n % 2 == 0 else TITLE]), n


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9]+", text)


def test_every_line_stays_on_the_page_it_is_printed_on(tmp_path):
    """A paragraph runs over each page break (mid-sentence) and running heads alternate by parity:
    each page's markdown has exactly the words printed in that page's body, in order, and no head."""
    import pypdfium2

    layouts = typeset_layouts(tmp_path, "fancyhdr", _paper("lncs", 14), options="twoside")
    doc = pypdfium2.PdfDocument(tmp_path / "m.pdf")
    printed, heads = [], 0
    for i in range(len(doc)):
        # PDFium marks TeX's hyphenation as U+FFFE (the lines already joined) or U+0002
        lines = doc[i].get_textpage().get_text_range().replace("\ufffe", "").replace("\x02", "-").splitlines()
        body = [ln for ln in lines if AUTHORS not in ln and TITLE not in ln and not ln.strip().isdigit()]
        heads += len(lines) - len(body)
        printed.append(re.sub(r"-\s*\n", "", "\n".join(body)))  # TeX's hyphenation inside the page
    # the test's premise: pages end and start mid-sentence, and heads are printed
    assert sum(not p.rstrip().endswith(".") for p in printed[:-1]) >= 2 and heads >= 4
    markdown = compose_pages([page.to_json() for page in layouts])
    assert len(markdown) == len(printed) == 5
    for i, (md, text) in enumerate(zip(markdown, printed, strict=True)):
        assert _words(md) == _words(text), i
        assert AUTHORS not in md and TITLE not in md


TOP_MARGIN = "\\newgeometry{top=0.75in,bottom=1.2in,left=1.2in,right=1.2in,headsep=12pt,footskip=30pt}"


def _one_page(tmp_path, body: str):
    """Furniture of a journal or preprint page: page number alone in the head, journal lines,
    "Downloaded from", a venue notice and IEEE's copyright line in the foot, a rotated arXiv stamp."""
    foot = ("\\fancyfoot[C]{\\footnotesize PLOS ONE $|$ https://doi.org/10.1371/journal.pone.0123456 May 2021"
            " $|$ Volume 16 $|$ Issue 5 $|$ e0123456\\\\ Downloaded from https://example.org/article/42 by guest"
            " on 3 May 2024\\\\ Preprint. Under review.\\\\ 978-1-6654-0000-0/21/\\$31.00 \\copyright 2021 IEEE\\\\"
            " Journal of Machine Learning Research 21 (2020) 1-45}")
    stamp = ("\\AddToShipoutPictureBG*{\\AtPageLowerLeft{\\put(30,250){\\rotatebox{90}{\\Large "
             "arXiv:2401.01234v2 [cs.LG] 3 Jan 2024}}}}")
    tex = (TOP_MARGIN + "\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}\\setcounter{page}{62}"
           "\\fancyhead[C]{\\thepage}" + foot + stamp + "\n" + body)
    pages = typeset_layouts(tmp_path, "fancyhdr,geometry,graphicx,eso-pic", tex)
    assert len(pages) == 1
    return pages


FURNITURE = ("62", "PLOS ONE", "Downloaded from", "Preprint", "IEEE", "Journal of Machine", "arXiv:2401")


@pytest.mark.parametrize("start", ["\\section{Method}", "A short line.\n\n\\section{Method}"])
def test_one_page_furniture_is_found_by_position_and_pattern(tmp_path, start):
    """A one-page input has no repetition to go by. Its body's first line at the top of the page (a
    section heading, or a paragraph's short last line before one) is no furniture."""
    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(3))
    pages = _one_page(tmp_path, start + "\n" + text)
    top = min(pages[0].fragments, key=lambda f: (f.y0, f.x0))
    assert top.text == "62" and top.y1 < 0.11 * pages[0].height  # the premise: in the top band
    first_body = min((f for f in pages[0].fragments if f.text != "62"), key=lambda f: (f.y0, f.x0))
    assert first_body.y1 < 0.11 * pages[0].height or start.startswith("\\section")
    remove_furniture(pages)
    kept = [f.text for f in sorted(pages[0].fragments, key=lambda f: (f.y0, f.x0))]
    assert not [t for t in kept if any(m in t for m in FURNITURE)], kept
    assert kept[:2] == (["1", "Method"] if start.startswith("\\section") else ["A short line.", "1"])
    assert " ".join(kept).count("Sentence") == 27


def test_a_tables_first_row_at_the_top_of_a_page_is_no_page_number(tmp_path):
    """A table floated to the top of page 2 ("# Layers  12", a rule's space below it) stands apart
    like a head beside its number; the paper's page numbers count with its pages, 12 does not."""
    def text(a: int, b: int) -> str:
        return "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(a, b))

    table = ("\\begin{table}[t]\\centering\\begin{tabular}{lr}\\toprule \\# Layers & 12\\\\ \\midrule "
             "Emb. Dim. & 768\\\\ Batch size & 64\\\\ \\bottomrule\\end{tabular}\\caption{Training configuration.}"
             "\\end{table}")
    pages = typeset_layouts(tmp_path, "booktabs", text(0, 5) + "\n\n" + table + "\n\n" + text(5, 12))
    top = sorted(pages[1].fragments, key=lambda f: (f.y0, f.x0))[:2]
    assert [f.text for f in top] == ["# Layers", "12"]  # the premise: the table opens page 2
    removed = remove_furniture(pages)
    assert [[f.text for f in gone] for gone in removed] == [[str(n)] for n in range(1, len(pages) + 1)]


def test_heads_and_numbers_of_a_supplement_numbered_from_one_again_are_removed(tmp_path):
    """An appendix or supplement that starts again at page 1 (distildoc in the development set):
    its heads alternate with the printed numbers, no longer with the page's place in the file."""
    supplement = "\n\n".join(" ".join(_sentence(200 + 9 * p + i) for i in range(9)) for p in range(7))
    body = _paper("lncs", 8) + "\n\\clearpage\\setcounter{page}{1}\n" + supplement  # 3 + 3 pages
    pages = typeset_layouts(tmp_path, "fancyhdr", body, options="twoside")
    printed = [min((f for f in page.fragments if f.text.isdigit()), key=lambda f: f.y0).text for page in pages[1:]]
    assert "1" in printed[1:]  # the premise: the numbering starts again
    removed = remove_furniture(pages)
    for page_number, gone in zip(printed, removed[1:], strict=True):
        head = AUTHORS if int(page_number) % 2 == 0 else TITLE
        assert sorted(f.text for f in gone) == sorted([page_number, head]), page_number


def test_a_page_number_set_close_under_the_body_is_removed(tmp_path):
    """muse (ICML) and stoic: the page number sits 3-5 pt under the last line of the text (a long
    caption or a full column reaching the foot), closer than the gap that sets an edge zone apart,
    and was kept at the page's end. A lone number on the edge row that counts with the pages is one."""
    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(12))
    pages = typeset_layouts(tmp_path, "geometry", text, preamble="\\geometry{margin=1in,footskip=10pt}")
    for page in pages[:-1]:
        last, number = sorted(page.fragments, key=lambda f: f.y0)[-2:]
        # the premise: set closer under the text than an edge zone's gap (``ISOLATION``)
        assert number.text.isdigit() and number.y0 - last.y1 < ISOLATION * (number.y1 - number.y0)
    removed = remove_furniture(pages)
    assert [[f.text for f in gone] for gone in removed] == [[str(n)] for n in range(1, len(pages) + 1)]


def test_one_page_download_stamp_and_the_page_number_over_it_are_removed(tmp_path):
    """Issue 36: a page as IEEE Xplore serves it, one page alone: the page number in the foot and,
    under it in tiny type, the library's download stamp. The stamp's own small height set the number
    apart from the edge zone (it was kept at the end of the text), and "Downloaded on <date> at <time>
    UTC" read as no furniture. Judged by olmOCR-Bench's classes, tests written from the source."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    stamp = ("Authorized licensed use limited to: Example Institute of Technology. Downloaded on March 03,2024"
             " at 12:34:56 UTC from IEEE Xplore.  Restrictions apply.")
    foot = ("\\fancyfoot[C]{\\parbox[t]{\\textwidth}{\\centering\\small\\thepage\\\\[16pt]\\tiny " + stamp + "}}")
    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(4))
    tex = ("\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}\\setcounter{page}{417}" + foot
           + "\n\\section{Method}\n" + text)
    pages = typeset_layouts(tmp_path, "fancyhdr,geometry", tex, preamble="\\geometry{margin=1in,footskip=30pt}")
    assert len(pages) == 1
    [markdown] = compose_pages([pages[0].to_json()])
    tests = [{"id": "number", "type": "absent", "text": "417"},
             {"id": "stamp", "type": "absent", "text": "Downloaded on March 03,2024 at 12:34:56 UTC from IEEE Xplore."},
             {"id": "licence", "type": "absent", "text": "Authorized licensed use limited to"},
             {"id": "last", "type": "present", "text": _sentence(35)},
             {"id": "order", "type": "order", "before": _sentence(0), "after": _sentence(35)}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown[-400:]


def test_one_page_part_number_in_the_head_is_removed(tmp_path):
    """Issue 36: a datasheet page alone carries its part number in the head (top right, body size),
    with no page beside it to repeat it and no number beside it. Judged by olmOCR-Bench's classes,
    tests from the source; the section heading under it stays."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(3))
    tex = ("\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}\\setcounter{page}{7}"
           "\\fancyhead[R]{\\small SN74HC00A-Q1}\\fancyfoot[C]{\\thepage}\n\\section{Description}\n" + text)
    pages = typeset_layouts(tmp_path, "fancyhdr,geometry", tex, preamble="\\geometry{margin=1in}")
    assert len(pages) == 1
    [markdown] = compose_pages([pages[0].to_json()])
    tests = [{"id": "part", "type": "absent", "text": "SN74HC00A-Q1"},
             {"id": "heading", "type": "present", "text": "# 1 Description"},
             {"id": "order", "type": "order", "before": _sentence(0), "after": _sentence(26)}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown[:400]


def test_one_page_head_in_parts_and_a_page_of_foot_are_removed(tmp_path):
    """Issue 36 (furniture on one-page inputs; a probe of another head): ``fancyhdr``'s left and
    right head fields on a one-page input, a compile-date stamp and a draft mark ("Compiled on
    2024-05-17 ... Draft v2"), with "Preprint. Under review." and "Page 1 of 1" in the foot. No
    repetition shows the head on one page and neither part reads as furniture: both were kept.
    Judged by olmOCR-Bench's classes, tests written from the source; the section heading stays."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(3))
    tex = ("\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}"
           "\\lhead{\\small Compiled on 2024-05-17}\\rhead{\\small Draft v2}"
           "\\lfoot{\\small Preprint. Under review.}\\rfoot{\\small Page \\thepage\\ of 1}"
           "\n\\section{Introduction}\n" + text)
    pages = typeset_layouts(tmp_path, "fancyhdr,geometry", tex, preamble="\\geometry{margin=1in}")
    assert len(pages) == 1
    [markdown] = compose_pages([pages[0].to_json()])
    tests = [{"id": "date", "type": "absent", "text": "Compiled on 2024-05-17"},
             {"id": "draft", "type": "absent", "text": "Draft v2"},
             {"id": "preprint", "type": "absent", "text": "Preprint. Under review."},
             {"id": "page", "type": "absent", "text": "Page 1 of 1"},
             {"id": "heading", "type": "present", "text": "# 1 Introduction"},
             {"id": "first", "type": "present", "text": _sentence(0)},
             {"id": "order", "type": "order", "before": _sentence(0), "after": _sentence(26)}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown[:400]


@pytest.mark.parametrize(("head", "foot", "stamps"), [
    ("\\chead{\\small Compiled on 17 May 2024}", "\\cfoot{\\thepage}", ["Compiled on 17 May 2024"]),
    ("\\rhead{\\thepage}", "\\cfoot{\\footnotesize Generated 2024-05-17 14:22 UTC}", ["Generated 2024-05-17 14:22 UTC"]),
    ("\\chead{\\small CONFIDENTIAL}", "\\cfoot{\\small Internal report RB-2024-017}", ["CONFIDENTIAL", "RB-2024-017"]),
])
def test_one_page_date_stamps_and_handling_marks_are_removed(tmp_path, head, foot, stamps):
    """Issue 36 (furniture on one-page inputs; probes of other stamps): a compile or print date alone
    in the head or the foot, a "CONFIDENTIAL" head and an "Internal report" foot of a one-page input
    were kept (no repetition on one page, no wording rule for them). Judged by olmOCR-Bench's
    classes, tests written from the source; the heading and every sentence stay."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    text = "\n\n".join(" ".join(_sentence(9 * p + i) for i in range(9)) for p in range(3))
    tex = ("\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}" + head + foot
           + "\n\\section{Overview}\n" + text)
    pages = typeset_layouts(tmp_path, "fancyhdr,geometry", tex, preamble="\\geometry{margin=1in}")
    assert len(pages) == 1
    [markdown] = compose_pages([pages[0].to_json()])
    tests = [{"id": f"stamp-{k}", "type": "absent", "text": s} for k, s in enumerate(stamps)]
    tests += [{"id": "heading", "type": "present", "text": "# 1 Overview"},
              {"id": "first", "type": "present", "text": _sentence(0)},
              {"id": "last", "type": "present", "text": _sentence(26)},
              {"id": "order", "type": "order", "before": _sentence(0), "after": _sentence(26)}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown
