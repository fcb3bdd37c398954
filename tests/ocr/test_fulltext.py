"""The full-text harness on one LaTeX paper (typeset here with pdflatex, as ``make bench`` does):
the default engine passes most of the olmOCR-Bench tests derived from the source, judged by olmocr's
own test classes (every engine of ours passed about a third before the layout step), and the pages
whose font encoding lies are recoded from a few OCR'd lines (or, without recoding, OCR'd whole) and
still pass. No Ray: the engines run as a worker runs them. The ``math`` tests render KaTeX in
chromium (olmocr's ``MathTest``): they are judged in tests of their own, marked ``browser``."""

from __future__ import annotations

import collections

import pytest

from benchmarks.fulltext import harness
from ocr_ray.engines import get_engine


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    built = harness.build_set(tmp_path_factory.mktemp("latex"), papers=["twocol_layout"], variants=("digital", "broken"))
    return {doc.variant: doc for doc in built}


def _rates(doc, markdown, math: bool = False):
    """Pass rate overall and per test type; ``math`` tests (chromium) only when asked."""
    tests = [t for t in doc.tests if math or t["type"] != "math"]
    kinds = {t["id"]: t["type"] for t in tests}
    by_kind = collections.defaultdict(list)
    for test_id, ok in harness.verdicts(markdown, tests).items():
        by_kind[kinds[test_id]].append(ok)
    total = sum(sum(v) for v in by_kind.values()) / sum(len(v) for v in by_kind.values())
    return total, {k: sum(v) / len(v) for k, v in by_kind.items()}


def test_text_layer_on_a_typeset_two_column_paper(docs):
    markdown, routes, error = harness.convert(get_engine("text-layer"), docs["digital"].pdf)
    assert error is None and routes == ["text-layer:prose"] * 3
    total, by_kind = _rates(docs["digital"], markdown)
    assert total >= 0.85, (total, by_kind)
    for kind in ("absent", "order", "table", "heading"):  # each structure kind works
        assert by_kind[kind] >= 0.75, (kind, by_kind)
    assert markdown.count(harness_separator()) == 2


def harness_separator() -> str:
    from ocr_ray.conversion import PAGE_SEPARATOR

    return PAGE_SEPARATOR


@pytest.mark.parametrize("name", ["text-layer", "auto"])
def test_a_broken_font_encoding_is_recoded_from_a_few_ocr_lines(docs, name):
    """The text layer lies (shifted letters) but its geometry does not: a sample of its lines is
    OCR'd, a substitution table per font is learnt, and the pages go back to the text layer with
    their tables and equations, as good as the digital copy."""
    from ocr_ray.routing import TextLayerEngine

    text_layer, _, _ = harness.convert(TextLayerEngine(fallback=None), docs["broken"].pdf)
    garbage, _ = _rates(docs["broken"], text_layer)
    assert garbage < 0.35  # the text layer lies: shifted letters
    markdown, routes, error = harness.convert(get_engine(name), docs["broken"].pdf)
    assert error is None and routes == ["text-layer:recoded"] * 3
    total, by_kind = _rates(docs["broken"], markdown)
    assert total >= 0.9, (total, by_kind)
    for kind in ("table", "heading"):  # structure OCR'd pages lose is kept
        assert by_kind[kind] >= 0.75, (kind, by_kind)


def test_without_recoding_a_broken_font_is_ocred_whole(docs):
    from ocr_ray.routing import TextLayerEngine

    markdown, routes, error = harness.convert(TextLayerEngine(recode=False), docs["broken"].pdf)
    assert error is None and routes == ["rapidocr:garbled"] * 3
    total, by_kind = _rates(docs["broken"], markdown)
    assert total >= 0.6, (total, by_kind)


@pytest.mark.browser  # olmocr's MathTest renders KaTeX in chromium
@pytest.mark.parametrize("variant", [
    "digital",
    pytest.param("broken", marks=pytest.mark.xfail(strict=True, reason="the broken fonts' formula stays glyph text "
                                                    "in $$ (n L(w) = − X log p(yi | xi , w) ...): not built as LaTeX")),
])
def test_the_display_formula_passes_olmocrs_math_test(docs, variant):
    markdown, _, error = harness.convert(get_engine("text-layer"), docs[variant].pdf)
    assert error is None and "$$" in markdown
    math = [t for t in docs[variant].tests if t["type"] == "math"]
    assert math and all(harness.verdicts(markdown, math).values()), math
