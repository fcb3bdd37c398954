"""Issue 36, item 3: headings from type size alone. A revision stamp in large type, a proof's
lead-in set bold on a line of its own ("Proof of Lemma 2:") and a paragraph in large type that a
column's end breaks in two became ``## `` headings, cutting their sentences. Typeset with pdflatex,
judged by olmOCR-Bench's classes with tests written from the source; the section headings stay."""
from __future__ import annotations

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

EXTRA = " It ends here."
STAMP = "Revision 3 -- 2024-03-03 14:22:05"
LEAD = ("We show that a reader of papers can keep every sentence of a page whole whatever the size of its type, "
        "and we test it on many pages.")


def _para(n: int, k: int) -> str:
    return " ".join(f"Sentence {n}.{i} of the body says that models read papers in plain words." for i in range(k))


def test_a_stamp_a_proof_lead_in_and_a_broken_paragraph_in_large_type_are_no_headings(tmp_path):
    from benchmarks.fulltext_real.olmocr_judge import explain

    body = ("\\twocolumn\\thispagestyle{empty}\n{\\large " + STAMP + "\\par}\\bigskip\n\\section{Method}\n"
            + _para(1, 6) + "\n\n\\noindent\\textbf{Proof of Lemma 2:}\\\\\n" + _para(2, 3) + "\n\n" + _para(3, 18)
            + "\n\n\\section{Results}\n" + _para(4, 3) + EXTRA + "\n\n{\\large " + LEAD + "\\par}\n\n" + _para(5, 8))
    pages = typeset_layouts(tmp_path, "geometry", body, preamble="\\geometry{margin=1in}")
    lead = [f for f in pages[0].fragments if f.size > 11 and f.text[:12] in LEAD]
    # the premise: the large paragraph starts at the foot of the left column and ends atop the right one
    assert min([f.y0 for f in lead if f.x0 < 300] or [0]) > 600 and min([f.y0 for f in lead if f.x0 > 300] or [999]) < 100, [(f.x0, f.y0, f.text) for f in lead]
    [markdown] = compose_pages([pages[0].to_json()])
    tests = [{"id": "stamp", "type": "absent", "text": "## Revision"},
             {"id": "stamp-kept", "type": "present", "text": "Revision 3 - 2024-03-03 14:22:05"},
             {"id": "proof", "type": "absent", "text": "## Proof"},
             {"id": "proof-kept", "type": "present", "text": "Proof of Lemma 2: Sentence 2.0 of the body"},
             {"id": "lead", "type": "present", "text": LEAD},
             {"id": "lead-heading", "type": "absent", "text": "## We show"},
             {"id": "method", "type": "present", "text": "# 1 Method"},
             {"id": "results", "type": "present", "text": "# 2 Results"}]
    failed = {t["id"]: why for t in tests for ok, why in [explain(markdown, t)] if not ok}
    assert failed == {}, markdown
