"""Issue 27: two columns read line by line across. With a display in one column the columns'
baselines no longer line up, every line overlaps one of the other column, and the whole page is
one horizontal band; one line that runs into the gutter (an overfull line, a long URL) then left it
a 4 pt gap, too narrow for a column gap, and the page was read across. Typeset with the narrow
gutters of real two-column styles (IEEEtran 0.17 in, ACL 0.6 cm, ICML 0.25 in): the left column
must be read whole before the right one. Single-column pages with a centred display or a figure
of two panels in the middle must still read top to bottom."""

from __future__ import annotations

import re

import pytest

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

LEFT = [f"Alpha {n}" for n in ("one", "two", "three", "four", "five", "six", "seven")]
RIGHT = [f"Beta {n}" for n in ("one", "two", "three", "four", "five", "six", "seven", "eight")]
# a line that ends 4 pt short of the right column (its box is the column's width plus the gutter
# less 4 pt), or a URL that runs well across the gutter into the right column's lines
STRAYS = {
    "near": "\\noindent\\hbox to \\dimexpr\\columnwidth+\\columnsep-4pt\\relax{Alpha four runs up to the "
            "other column\\hfill end.}\\par",
    "across": "\\noindent\\hbox{Alpha four has a link: https://example.org/a/very/long/path/to/some/resource}\\par",
}


def _sentence(start: str, side: str) -> str:
    return f"{start} is a sentence of the {side} column that talks about models and data in general terms."


def _two_columns(stray: str) -> str:
    left = [_sentence(s, "left") for s in LEFT]
    # the display moves the left column's later baselines off the right column's
    body = ["\\section{Method}", " ".join(left[:2]), "\\begin{equation} a = b + c \\end{equation}", left[2],
            "", STRAYS[stray], "", " ".join(left[4:]), "\\newpage", " ".join(_sentence(s, "right") for s in RIGHT)]
    return "\\thispagestyle{empty}\n" + "\n".join(body)


def _order(markdown: str, starts: list[str]) -> list[str]:
    found = sorted((markdown.find(s), s) for s in starts)
    assert all(i >= 0 for i, _ in found), [s for i, s in found if i < 0]
    return [s for _, s in found]


@pytest.mark.parametrize("gutter", ["0.17in", "0.6cm", "0.25in"])
@pytest.mark.parametrize("stray", sorted(STRAYS))
def test_offset_columns_with_a_line_in_the_gutter_are_read_column_by_column(tmp_path, gutter, stray):
    (page,) = typeset_layouts(tmp_path, "amsmath", _two_columns(stray), preamble=f"\\setlength{{\\columnsep}}{{{gutter}}}",
                              options="twocolumn")
    (markdown,) = compose_pages([page.to_json()])
    assert _order(markdown, LEFT + RIGHT) == LEFT + RIGHT, markdown


def test_single_column_pages_with_a_display_or_a_figure_read_top_to_bottom(tmp_path):
    words = "We describe the setting in words that fill the whole line of this single column page."
    panel = "\\begin{{minipage}}{{0.4\\textwidth}}\\centering Panel {0} shows {0} results\\\\ and a second line {0}\\\\ and a third line {0}\\end{{minipage}}"
    body = ["\\thispagestyle{empty}", f"First {words} {words}", "\\[ \\sum_{i=1}^n x_i = y \\]",
            f"Second {words} {words}",
            "\\begin{figure}[h]\\centering " + panel.format("A") + "\\hfill " + panel.format("B")
            + "\\caption{Two panels side by side.}\\end{figure}", f"Third {words} {words}", f"Fourth {words}"]
    (page,) = typeset_layouts(tmp_path, "amsmath", "\n\n".join(body))
    (markdown,) = compose_pages([page.to_json()])
    starts = ["First We", "Second We", "Panel A shows", "Panel B shows", "Third We", "Fourth We"]
    assert _order(markdown, starts) == starts, markdown
    assert re.search(r"x_\{?i\}?", markdown), markdown  # the display stays one formula


def test_two_lines_in_the_gutter_one_beside_the_other_columns_heading(tmp_path):
    """A line ending 4 pt short of the right column where that column has a heading's space beside
    it (a band of its own: the line's last word, split off by its space, sits in the gutter and
    was taken for a line across both columns), another one lower down, a display in each column."""
    left = [_sentence(s, "left") for s in LEFT]
    right = [_sentence(s, "right") for s in RIGHT]
    body = ["\\thispagestyle{empty}", "\\section{Method}", left[0], STRAYS["near"].replace("Alpha four", "Also"),
            left[1], "\\begin{equation} a = b + c \\end{equation}", left[2], "", STRAYS["near"], "",
            " ".join(left[4:]), "\\newpage", right[0], right[1], "\\subsection{More}", " ".join(right[2:5]),
            "\\[ x^2 + y^2 = z^2 \\]", " ".join(right[5:])]
    (page,) = typeset_layouts(tmp_path, "amsmath", "\n".join(body), preamble="\\setlength{\\columnsep}{0.17in}",
                              options="twocolumn")
    (markdown,) = compose_pages([page.to_json()])
    assert _order(markdown, LEFT + RIGHT) == LEFT + RIGHT, markdown


def test_a_column_beside_a_figure_is_read_after_the_column_of_the_figure(tmp_path):
    """stoic p7: a figure (a picture, no text) tops the left column; the right column's first lines
    stand beside the picture, alone at their height, and each was read as a band of its own before
    the left column's caption and text, cutting the right column's paragraph in two. The picture
    is part of the left column: the left column (figure, caption, text) is read whole, then the
    right one."""
    from PIL import Image

    Image.new("RGB", (400, 300), (90, 140, 200)).save(tmp_path / "fig.png")
    sentences = [f"Sentence number {k} of the running text says something about the method." for k in range(1, 120)]
    body = ("\\thispagestyle{empty}\n\\begin{figure}[t]\\centering\\includegraphics[width=\\columnwidth]{fig.png}"
            "\\caption{A picture with no text in it.}\\end{figure}\n" + " ".join(sentences))
    layouts = typeset_layouts(tmp_path, "graphicx", body, options="twocolumn")
    markdown = compose_pages([layouts[0].to_json()])[0]
    numbers = [int(n) for n in re.findall(r"Sentence number (\d+) ", markdown)]
    assert len(numbers) > 30 and numbers == sorted(numbers), markdown


def _paragraph(side: str, n: int) -> list[str]:
    return [f"Paragraph {n} of the {side} column, sentence {k}, says something about {side} models and their data "
            f"in terms that are {('plain', 'clear', 'short', 'long')[k]} enough." for k in range(4)]


def test_two_columns_four_points_apart_are_read_column_by_column(tmp_path):
    """Issue 36: a two-column page whose gutter is 4 pt (narrower than ``MIN_COLUMN_GAP``, no wider
    than a space) was read paragraph by paragraph alternating between the columns. The columns are
    found by their alignment: a white stripe down the block with justified lines on both sides.
    Judged by olmOCR-Bench's order tests, written from the source."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    sides = {side: [_paragraph(side, n) for n in ("one", "two", "three", "four")] for side in ("left", "right")}
    body = ("\\setlength{\\columnsep}{4pt}\\twocolumn[{\\centering\\Large A Title Across Both Columns\\par\\bigskip}]"
            "\\thispagestyle{empty}\n" + "\n\n".join(" ".join(p) for p in sides["left"]) + "\n\\newpage\n"
            + "\n\n".join(" ".join(p) for p in sides["right"]))
    pages = typeset_layouts(tmp_path, "geometry", body, preamble="\\geometry{margin=1in}")
    left_x1 = max(f.x1 for f in pages[0].fragments if "left column" in f.text)
    right_x0 = min(f.x0 for f in pages[0].fragments if "right column" in f.text)
    assert 3 < right_x0 - left_x1 < 5  # the premise: a 4 pt gutter
    [markdown] = compose_pages([pages[0].to_json()])
    paragraphs = sides["left"] + sides["right"]
    tests = [{"id": f"order-{i}", "type": "order", "before": a[-1], "after": b[0]}
             for i, (a, b) in enumerate(zip(paragraphs, paragraphs[1:], strict=False))]
    tests += [{"id": "title", "type": "order", "before": "A Title Across Both Columns", "after": paragraphs[0][0]}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown


def test_a_main_column_beside_a_side_column_keeps_its_sentences_whole(tmp_path):
    """Issue 36: a justified main column beside a ragged side column of notes. A line of the main
    column split at a wide sentence space (TeX's space after a full stop, stretched) above the
    paragraph's short last line was cut as two columns: the line's end was read after the next line.
    Judged by olmOCR-Bench's classes, every sentence from the source present and in order."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    main = [[f"Main paragraph {p} sentence {i} tells of models and their data in plain words." for i in range(5)]
            for p in range(4)]
    side = [" ".join(f"Side note {p} line {i} adds a remark." for i in range(4)) for p in range(3)]
    body = ("\\thispagestyle{empty}\\noindent\\begin{minipage}[t]{\\dimexpr0.78\\textwidth-12pt}"
            + "\n\n".join(" ".join(p) for p in main) + "\\end{minipage}\\hspace{12pt}\\begin{minipage}[t]{0.22\\textwidth}"
            "\\raggedright\\small " + "\n\n".join(side) + "\\end{minipage}")
    pages = typeset_layouts(tmp_path, "geometry", body, preamble="\\geometry{margin=1in}")
    [markdown] = compose_pages([pages[0].to_json()])
    sentences = [s for p in main for s in p]
    tests = [{"id": f"present-{i}", "type": "present", "text": s} for i, s in enumerate(sentences)]
    tests += [{"id": f"order-{i}", "type": "order", "before": a, "after": b}
              for i, (a, b) in enumerate(zip(sentences, sentences[1:], strict=False))]
    tests += [{"id": f"side-{i}", "type": "present", "text": s} for i, s in enumerate(side)]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown


def _plain(tag: str, n: int, k: int) -> list[str]:
    return [f"{tag} paragraph {n} sentence {i} tells the reader one more plain fact." for i in range(k)]


def test_three_columns_three_points_apart_are_read_column_by_column(tmp_path):
    """Issue 36 (narrow gutters; a probe of another layout): three columns 3 pt apart (``multicol``).
    The first gutter was found by alignment, the second not: the first column's lines, left of both
    stripes, outvoted the second column's edges, and the second and third columns were read line by
    line across. Judged by olmOCR-Bench's classes, tests written from the source."""

    paragraphs = [_plain("Triple", n, 5) for n in range(9)]
    body = ("\\thispagestyle{empty}\\setlength{\\columnsep}{3pt}\\begin{multicols}{3}\n"
            + "\n\n".join(" ".join(p) for p in paragraphs) + "\n\\end{multicols}")
    pages = typeset_layouts(tmp_path, "multicol,geometry", body, preamble="\\geometry{margin=0.8in}")
    starts = sorted({round(f.x0) for f in pages[0].fragments if f.text.startswith("Triple paragraph")})
    assert len(pages) == 1 and len(starts) >= 3  # the premise: three columns on one page
    [markdown] = compose_pages([pages[0].to_json()])
    assert _failed_reading(markdown, paragraphs) == {}, markdown


def test_a_side_box_four_points_from_the_text_is_read_after_it(tmp_path):
    """Issue 36 (a side column interleaves; a probe of another layout): a justified side box (a
    minipage, no paragraph indent) 4 pt beside the body's paragraphs in the ``report`` class. Its
    nine lines stand beside seven full lines of the body (two paragraphs' last lines are short), and
    eight full lines on each side were asked for: the box and the body were read line by line.
    Judged by olmOCR-Bench's classes, tests written from the source."""

    paragraphs = [_plain("Report", n, 4) for n in range(4)]
    side = " ".join(f"Box line {n} of the side box holds its own short note." for n in range(6))
    tex_dir = tmp_path
    (tex_dir / "m.tex").write_text(
        "\\documentclass{report}\n\\usepackage[margin=1in]{geometry}\n\\begin{document}\\thispagestyle{empty}\n"
        "\\noindent\\begin{minipage}[t]{0.68\\textwidth}\n" + "\n\n".join(" ".join(p) for p in paragraphs)
        + "\n\\end{minipage}\\hspace{4pt}\\begin{minipage}[t]{0.29\\textwidth}\\small\n" + side
        + "\n\\end{minipage}\n\\end{document}\n")
    markdown = _typeset_and_compose(tex_dir)
    assert _failed_reading(markdown, paragraphs, side) == {}, markdown


def _typeset_and_compose(tex_dir) -> str:
    """``tex_dir/m.tex`` (a whole document, its own class) typeset by pdflatex, its first page's markdown."""
    import shutil
    import subprocess

    import pypdfium2

    from ocr_ray.layout.pdftext import page_layout

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], cwd=tex_dir, check=True,
                   capture_output=True, timeout=120)
    doc = pypdfium2.PdfDocument(str(tex_dir / "m.pdf"))
    [markdown] = compose_pages([page_layout(doc[0]).to_json()])
    return markdown


def test_a_ragged_side_column_four_points_from_the_text_is_read_after_it(tmp_path):
    """Issue 36 (a side column interleaves; a probe of another layout): side notes set ragged right
    (``\\raggedright`` minipage) 4 pt beside justified paragraphs. Their lines share no right edge,
    and a gutter found by alignment asked for full lines on both sides: the notes and the body were
    read line by line. Judged by olmOCR-Bench's classes, tests written from the source."""

    paragraphs = [_plain("Main", n, 4) for n in range(5)]
    side = " ".join(f"Note line {n} of the ragged side column holds its own short remark." for n in range(7))
    body = ("\\thispagestyle{empty}\\noindent\\begin{minipage}[t]{0.7\\textwidth}\n"
            + "\n\n".join(" ".join(p) for p in paragraphs)
            + "\n\\end{minipage}\\hspace{4pt}\\begin{minipage}[t]{0.27\\textwidth}\\raggedright\\small\n" + side
            + "\n\\end{minipage}")
    pages = typeset_layouts(tmp_path, "geometry", body, preamble="\\geometry{margin=1in}")
    [markdown] = compose_pages([pages[0].to_json()])
    assert _failed_reading(markdown, paragraphs, side) == {}, markdown


def _failed_reading(markdown: str, paragraphs: list[list[str]], side: str | None = None) -> dict:
    """olmOCR-Bench's verdicts that failed (id: why) on ``markdown``: each paragraph present whole,
    each read before the next, and the side column's text present whole."""
    from benchmarks.fulltext_real.olmocr_judge import explain

    tests = [{"id": f"present-{n}", "type": "present", "text": " ".join(p)} for n, p in enumerate(paragraphs)]
    if side is not None:
        tests += [{"id": "side", "type": "present", "text": side}]
    tests += [{"id": f"order-{n}", "type": "order", "before": a[-1], "after": b[0]}
              for n, (a, b) in enumerate(zip(paragraphs, paragraphs[1:], strict=False))]
    return {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
