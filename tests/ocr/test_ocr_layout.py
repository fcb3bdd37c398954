"""OCR'd lines through the layout step (``ocr_ray.ocr_lines.ocr_layout``) and ruling lines found
on page images (``ocr_ray.layout.image_rules``): what a scan needs so its tables, headings and page
furniture come out as on a born-digital page. Synthetic images, no OCR model."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw

from ocr_ray.layout import compose_pages
from ocr_ray.layout.image_rules import rules_from_gray, rules_from_jpeg
from ocr_ray.layout.model import PageLayout
from ocr_ray.ocr_lines import ocr_layout

W, H = 612.0, 792.0
SCALE = 2.0  # pixels per point of the synthetic "render"


def _jpeg(draw_fn) -> bytes:
    image = Image.new("L", (int(W * SCALE), int(H * SCALE)), 255)
    draw_fn(ImageDraw.Draw(image))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85)
    return buffer.getvalue()


def _box(x0, y0, x1, y1):
    return [(x0 * SCALE, y0 * SCALE), (x1 * SCALE, y0 * SCALE), (x1 * SCALE, y1 * SCALE), (x0 * SCALE, y1 * SCALE)]


def test_thin_long_dark_runs_are_rules_and_text_or_blocks_are_not():
    def draw(d):
        d.rectangle([100, 200, 700, 201], fill=0)  # a 1 pt rule (2 px)
        d.rectangle([100, 400, 700, 460], fill=0)  # a filled box: far too thick for a rule
        d.rectangle([100, 600, 150, 601], fill=0)  # too short (25 pt)
        for x in range(100, 700, 12):  # dashed: letters and words leave gaps
            d.rectangle([x, 800, x + 8, 801], fill=0)
    gray = np.asarray(Image.open(io.BytesIO(_jpeg(draw))))
    rules = rules_from_gray(gray, 1 / SCALE)
    assert len(rules) == 1
    (rule,) = rules
    assert rule.horizontal and abs(rule.x0 - 50) <= 1.5 and abs(rule.x1 - 350.5) <= 1.5 and abs(rule.y0 - 100) <= 1


def _table_scan():
    """A booktabs-like table on a scanned page: three rules, OCR boxes (with their usual margin)
    for a header and three rows whose boxes overlap their neighbours' by a few points."""
    rows = [["Reader", "Precision", "Recall"], ["Line order", "61.3", "58.9"],
            ["Column heuristic", "84.6", "80.2"], ["Recursive partition", "97.8", "96.5"]]
    xs = [(180, 260), (280, 320), (340, 380)]
    boxes, texts = [], []
    for r, row in enumerate(rows):
        top = 310 + r * 11.5  # 11.5 pt row pitch, 17 pt tall OCR boxes: neighbours overlap
        for (x0, x1), text in zip(xs, row, strict=False):
            boxes.append(_box(x0, top, x1, top + 17))
            texts.append(text)
    image = _jpeg(lambda d: [d.rectangle([170 * SCALE, y * SCALE, 390 * SCALE, y * SCALE + 1], fill=0)
                             for y in (305, 324, 360)])
    return boxes, texts, image


def test_a_table_on_a_scan_is_rebuilt_from_the_rules_on_the_image():
    boxes, texts, image = _table_scan()
    page = PageLayout(W, H).to_json()
    layout_json = ocr_layout(page, boxes, texts, W * SCALE, "rapidocr", image=image)
    layout = PageLayout.from_json(layout_json)
    assert layout.height == H  # the page's height, not the last line's
    assert len([r for r in layout.rules if r.horizontal]) == 3
    (markdown,) = compose_pages([layout_json])
    assert "| Line order | 61.3 | 58.9 |" in markdown
    assert "| Column heuristic | 84.6 | 80.2 |" in markdown
    assert "| Recursive partition | 97.8 | 96.5 |" in markdown


def test_without_the_image_the_same_lines_have_no_rules_and_are_a_table_without_rules():
    # the rules come from the page image only; the lines themselves, a header over three rows of
    # numbers, are a table without rules since 7050250 (table_unruled.captionless_boxes): this test
    # asserted no table at all, which that change made wrong on purpose
    boxes, texts, _ = _table_scan()
    layout_json = ocr_layout(PageLayout(W, H).to_json(), boxes, texts, W * SCALE, "rapidocr")
    assert PageLayout.from_json(layout_json).rules == []
    (markdown,) = compose_pages([layout_json])
    assert "| Column heuristic | 84.6 | 80.2 |" in markdown


def test_an_equation_number_beside_a_tall_fraction_is_no_heading():
    lines = [(_box(60, 100 + 12 * i, 290, 112 + 12 * i), "body text of the column goes on here") for i in range(8)]
    lines.append((_box(270, 210, 290, 240), "(1)"))  # tall box: vertically centred on a fraction
    (markdown,) = compose_pages([ocr_layout(PageLayout(W, H).to_json(), [b for b, _ in lines],
                                            [t for _, t in lines], W * SCALE, "rapidocr")])
    assert "# (1)" not in markdown and "(1)" in markdown


def test_rules_need_a_page_width():
    assert rules_from_jpeg(b"", 612.0) == [] and rules_from_jpeg(_jpeg(lambda d: None), 0.0) == []


def test_a_formula_read_by_ocr_counts_as_maths_and_prose_does_not():
    from ocr_ray.ocr_lines import ocr_math_share

    assert ocr_math_share("L(w) = −∑log p(yi | xi, w) + λ |w|2,") >= 0.6
    assert ocr_math_share("which requires memory proportional to the square of the length.") < 0.15
    assert ocr_math_share("We set it to 10 in all of our runs, as is usual.") < 0.15


def _column(top: float, texts: list[str]) -> list[tuple]:
    return [(_box(60, top + 13 * i, 290, top + 13 * i + 12), text) for i, text in enumerate(texts)]


def _compose(lines) -> str:
    (markdown,) = compose_pages([ocr_layout(PageLayout(W, H).to_json(), [b for b, _ in lines],
                                            [t for _, t in lines], W * SCALE, "rapidocr")])
    return markdown


def test_a_section_number_read_apart_from_its_title_still_makes_a_heading():
    lines = _column(100, ["the last paragraph of the previous section ends here."])
    lines += [(_box(60, 130, 75, 142), "3.1"), (_box(72, 130, 160, 142), "Characters and lines")]  # boxes overlap
    lines += _column(150, ["We start from the characters of the text layer and their boxes."])
    assert "### 3.1 Characters and lines" in _compose(lines)


def test_ocr_pages_are_measured_against_their_own_body_size():
    # two OCR'd pages whose box heights differ by 8 %: the paper-wide body size would make the
    # smaller page's bold numbered heading "too small" to be a heading
    def page(height: float, heading: str) -> str:
        lines = [(_box(60, 100 + 15 * i, 290, 100 + 15 * i + height), "plain body text of this page goes on")
                 for i in range(12)]
        lines += [(_box(60, 300, 70, 300 + height), "6"), (_box(78, 300, 160, 300 + height), heading)]
        return ocr_layout(PageLayout(W, H).to_json(), [b for b, _ in lines], [t for _, t in lines], W * SCALE, "rapidocr")

    first, second = compose_pages([page(13.0, "Results"), page(12.0, "Conclusion")])
    assert "## 6 Results" in first and "## 6 Conclusion" in second


# Lines of real papers as RapidOCR read them on the scanned dev set (matheron-enkf, physics-ntp,
# word-mental-health, torch-sla): prose whose brackets, initials and citations made a third of its
# tokens "maths", so each became a display ($$ ... $$) cutting its paragraph in two.
_CITING_PROSE = [
    "conditioning for scalable Gaussian-process (GP) posterior draws (Wilson et al., 2020, 2021;",
    "(TeleAI), China Telecom, P. R. China. Correspondence to: Xue- long Li <xuelong.li@ieee.org>.",
    "Machine Learning - algorithms - faster - perspectives - Variational perspective -",
    "Distributed sparse computing. PETSc [Balay et al., 2023], Trilinos [Heroux et al., 2005], and",
    "models (e.g., I-HOPE [10], DDNet [11], LightGBM+SHAP [15]) focus on explaining",
    "II. LITERATURE REVIEW",
]


def test_citations_initials_and_asides_in_brackets_are_prose_not_maths():
    from ocr_ray.ocr_lines import ocr_math_share

    for line in _CITING_PROSE:
        assert ocr_math_share(line) < 0.15, line
    # a formula's brackets hold variables and arguments: still maths
    for formula in ("y = Hx + ε, ε ∼ N(0, R).", "(x1, x2, x3)", "D(H-L) η= N", "x∈Rⁿ min f(x) (1)"):
        assert ocr_math_share(formula) >= 0.3, formula


def test_a_paragraph_line_full_of_citations_stays_in_its_paragraph():
    paragraph = ["The machine-learning community re-invented the idea as path-wise",
                 "conditioning for scalable Gaussian-process (GP) posterior draws (Wilson",
                 "et al., 2020, 2021; Borovitskiy et al., 2023), with the same formula as",
                 "the filter uses for its ensemble members in every update step."]
    lines = _column(100, paragraph)
    lines += [(_box(120, 170, 230, 182), "y = Hx + ε, ε ∼ N(0, R).")]  # a display, set apart
    lines += _column(195, ["and the text goes on below it with a sentence of plain words."])
    markdown = _compose(lines)
    assert " ".join(paragraph) in " ".join(markdown.split()), markdown
    assert "$$\ny = Hx + ε, ε ∼ N(0, R).\n$$" in markdown, markdown
