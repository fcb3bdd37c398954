"""A line of prose dense with inline maths that opens a sentence with a word of two letters (issue
36 item 3, maths; helper maths12): the real set's dev paper miniacongts p12, a list item's line
"triplet Tk. If M[i][j] = M[i′][j′] = Lk,", a third of it maths, was read as a display and left unread
between the item's other lines. A sentence's end and the next one's first word in a text font,
a maths letter after it, is prose. Typeset here with pdflatex (Times, two columns), the truth the
LaTeX source; judged with olmOCR-Bench's present test."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import judge
from tests.ocr.math_typeset import PROSE
from tests.ocr.math_typeset import markdown_of as _markdown

ITEM = (r"\item \textbf{Injectivity}: Each $L_k$ uniquely identifies a triplet $T_k$. If $M[i][j] = M[i'][j'] = L_k$, "
        r"\mbox{consequently} $(i, j) = (i', j')$ and $T_k$ is the same.")
BODY = f"PROSE\n\\begin{{itemize}}\n{ITEM}\n\\end{{itemize}}\nPROSE\n"


def test_a_list_items_line_opening_a_short_word_after_a_full_stop_is_prose(tmp_path):
    markdown = _markdown(tmp_path, "amsmath,amssymb,mathptmx", BODY, options="twocolumn")
    assert "<!-- math: unread -->" not in markdown and "$$" not in markdown, markdown
    item = next(b for b in markdown.split("\n\n") if b.startswith("• Injectivity"))
    assert item.endswith("and Tk is the same."), markdown
    assert judge(markdown, [{"id": "item", "type": "present", "text": "uniquely identifies a triplet"},
                            {"id": "end", "type": "present", "text": "and Tk is the same."}]) == {"item": True, "end": True}
    assert markdown.count(PROSE.replace("'", "’")) == 2, markdown
