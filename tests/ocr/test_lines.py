"""Lines of a page from its fragments (``order.lines_of``), on fragments as the text layer gives them."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout import compose_pages
from ocr_ray.layout.model import Fragment, PageLayout


def test_a_line_made_tall_by_a_deep_subscript_is_not_joined_to_the_next_line():
    """matheron-enkf p. 11 on the real-paper dev set (its geometry): the paragraph's first line
    holds "µ·", whose subscript takes the line's box 3.7 pt into the next line's; the two lines
    overlapped by more than 30 % of the lower one and were read as one line, left to right: the
    second line's text came first ("... Thus, updating the In our work, while ...")."""
    lines = [(126.9, 506.3, 502.2, 521.9, "In our work, while we initially denote measures by µ· (which emphasizes their abstract"),
             (109.9, 518.2, 501.7, 528.2, "nature), one can equivalently work with the densities described above. Thus, updating the"),
             (109.9, 530.6, 501.7, 539.7, "ensemble according to the empirical version of the Kalman or Matheron update can be seen"),
             (109.9, 542.7, 503.1, 551.6, "as operating directly on these Dirac-based representations.")]
    page = PageLayout(612, 792, [Fragment(x0, y0, x1, y1, text, 9.9) for x0, y0, x1, y1, text in lines])
    [markdown] = compose_pages([page.to_json()])
    tests = [{"id": "first", "type": "present", "text": "In our work, while we initially denote measures by µ· (which "
              "emphasizes their abstract nature), one can equivalently work with the densities described above."},
             {"id": "order", "type": "order", "before": "Thus, updating the ensemble according to",
              "after": "as operating directly on these Dirac-based representations."}]
    assert judge(markdown, tests) == {"first": True, "order": True}, markdown
