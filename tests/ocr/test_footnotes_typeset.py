"""Footnotes typeset here with pdflatex, read by the text layer and composed; judged by olmOCR-Bench's
own test classes. The expected text is the LaTeX source's."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts


def test_an_affiliation_note_keeps_its_second_line(tmp_path):
    """An affiliation note as ICML prints it (physics-ntp on the real-paper dev set): no mark of its
    own, its first line "*Equal contribution 1Institute of ..." set 1 em in, the next line at the
    column's edge. The first line's column edges were its own, so the next line was no
    continuation: it stayed in the body, the note was cut after "Intelligence"."""
    prose = "\n\n".join(" ".join(f"Sentence {k} of paragraph {p} says what the body of the paper says here."
                                   for k in range(8)) for p in range(6))
    pages = typeset_layouts(tmp_path, "", r"""
\section{Introduction}
""" + prose[:len(prose) // 2] + r"""
{\renewcommand{\thefootnote}{}\footnotetext{\hspace{-1.5em}*Equal contribution \textsuperscript{1}Institute of
Artificial Intelligence (TeleAI), China Telecom, P. R. China. Correspondence to: Someone Else.}}
""" + prose[len(prose) // 2:], options="twocolumn")
    markdown = compose_pages([page.to_json() for page in pages])[0]
    tests = [{"id": "note", "type": "present",
              "text": "Equal contribution 1 Institute of Artificial Intelligence (TeleAI), China Telecom, P. R. China."}]
    assert judge(markdown, tests) == {"note": True}, markdown[-600:]
    assert markdown.count("(TeleAI)") == 1
