"""Defects the real scanned pages showed (issue 36, ``benchmarks/fulltext_realscans``): OCR'd lines as
RapidOCR read them on those pages, through the layout step (``ocr_layout`` -> ``compose_pages``).
Truth by hand, from the page images. No OCR model: the lines and boxes are given."""
from __future__ import annotations

from ocr_ray.layout import compose_pages
from ocr_ray.layout.model import PageLayout
from ocr_ray.ocr_lines import ocr_layout, ocr_math_share

W, H = 612.0, 792.0
SCALE = 2.0


def _box(x0, y0, x1, y1):
    return [(x0 * SCALE, y0 * SCALE), (x1 * SCALE, y0 * SCALE), (x1 * SCALE, y1 * SCALE), (x0 * SCALE, y1 * SCALE)]


def _compose(lines) -> str:
    (markdown,) = compose_pages([ocr_layout(PageLayout(W, H).to_json(), [b for b, _ in lines],
                                            [t for _, t in lines], W * SCALE, "rapidocr")])
    return markdown


# ocrmypdf's francais.pdf (a French pangram, one paragraph set ragged right), line by line as printed
_FRENCH = ["Portez ce vieux whisky au juge", "blond qui fume sur son île", "intérieure, à côté de l'alcôve",
           "ovoïde, où les bûches se", "consument dans l'âtre, ce qui", "lui permet de penser à la",
           "cænogénèse de l'être dont il", "est question dans la cause", "ambiguë entendue à Moÿ, dans",
           "un capharnaüm qui, pense-t-il,", "diminue çà et là la qualité de son", "œuvre."]


def test_prose_in_other_languages_and_abbreviations_is_not_maths():
    # short words the English list does not hold (French "ce", "au", German "Nr."), old print's
    # ordinals and abbreviations (pikepdf's congress.pdf: "3d Session.", "Ex. Doc.", "Mr. De Long"):
    # no maths symbol on the line, so no formula, however many short words
    for line in ["Portez ce vieux whisky au juge", "3d Session.", "Ex. Doc.", "Schlüssel Nr:",
                 "2. Mr. Fish to Mr. De Long, September 10, 1870.", "un capharnaüm qui, pense-t-il,"]:
        assert ocr_math_share(line) == 0.0, line
    for formula in ("y = Hx + ε", "f(x) = a x + b", "(x1, x2, x3)"):  # a symbol on the line: its variables count
        assert ocr_math_share(formula) >= 0.3, formula


def test_a_french_paragraph_read_by_ocr_is_one_paragraph_without_displays():
    lines = [(_box(150, 140 + 30 * i, 150 + 14 * len(t) / 1.3, 140 + 30 * i + 22), t) for i, t in enumerate(_FRENCH)]
    markdown = _compose(lines)
    assert "$$" not in markdown
    assert ("Portez ce vieux whisky au juge blond qui fume sur son île intérieure, à côté de l'alcôve ovoïde,"
            in markdown), markdown


def test_a_stray_ideograph_on_a_latin_page_is_dropped_and_a_chinese_page_keeps_its_own():
    # pdfminer.six's 175.pdf (a typewritten service bulletin): "ACCESSORY KIT" set letter by letter
    # down the margin, its "I" read as "一" by RapidOCR's Chinese-and-English recogniser
    body = ["Installation of 6.00X6 main gear tires and extended nose gear fork.",
            "The 6.00X6 tires and the extended nose fork must be installed in conjunction.",
            "Neither item may be installed without the other.",
            "Estimated time to accomplish this installation is two (2) man hours."]
    lines = [(_box(72, 100 + 20 * i, 500, 114 + 20 * i), t) for i, t in enumerate(body)]
    lines.append((_box(540, 100, 552, 180), "R Y K 一 T"))
    markdown = _compose(lines)
    assert "一" not in markdown and "Neither item may be installed without the other." in markdown
    chinese = ["行政处罚决定书", "当事人名称：某某有限公司", "经查，当事人于二零一九年三月在其经营场所销售商品"]
    markdown = _compose([(_box(72, 100 + 20 * i, 500, 114 + 20 * i), t) for i, t in enumerate(chinese)])
    assert "行政处罚决定书" in markdown and "二零一九年" in markdown


def test_a_misread_margin_line_number_does_not_keep_the_column_of_numbers():
    # the scanned dev set's cryoem review copy: its margin number 59 read "s9" stood in the column of
    # numbers, crossed it, and the line-number rule kept all of them (60, 61, 62 in the text)
    body = ["The orientation of each particle is estimated from its projection by a search over",
            "the sphere of directions, refined by local moves around the best match found so far.",
            "We compare the estimates with the ground truth on synthetic data of three proteins,",
            "each imaged at the same dose and defocus as the experimental data sets we read.",
            "The errors are small for the two larger proteins and grow for the smallest one,",
            "whose projections carry less signal at the same noise level in every micrograph."]
    numbers = ["57", "58", "s9", "60", "61", "62"]
    lines = [(_box(100, 100 + 16 * i, 520, 112 + 16 * i), t) for i, t in enumerate(body)]
    lines += [(_box(74, 100 + 16 * i, 84, 112 + 16 * i), n) for i, n in enumerate(numbers)]
    flat = " ".join(_compose(lines).split())
    assert " ".join(body) in flat, flat
    assert not any(n in flat.split() for n in numbers), flat
