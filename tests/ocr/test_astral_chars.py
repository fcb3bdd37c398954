"""Characters beyond the Basic Multilingual Plane (a font whose ToUnicode maps math italic letters to
U+1D400..: newtxmath with ``\\pdfgentounicode``, as acmart papers are set) reach us from PDFium as two
UTF-16 code units per glyph. Read one at a time they were lone surrogates: "𝑝" became "\\ud835\\udc5d",
which no UTF-8 writer accepts, so Arrow refused the whole batch of papers in the Ray pipeline
(found by bench_fulltext_real on two real acmart papers). Each must be one character."""
from __future__ import annotations

import re

import pyarrow as pa

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

BODY = (r"\input{glyphtounicode}\pdfgentounicode=1 "
        r"Upon identifying a packet $p_i$ as an epoch boundary, the sandbox records its hash $h(p_i)$ "
        r"and a latency of $10\mu s$ per host.")


def test_math_italic_letters_beyond_the_bmp_are_one_character_each(tmp_path):
    markdown = "\n\n".join(compose_pages([p.to_json() for p in typeset_layouts(tmp_path, "newtxmath", BODY)]))
    assert not re.search(r"[\ud800-\udfff]", markdown), ascii(markdown)
    assert "\U0001d45d" in markdown or "p" in markdown  # the letter itself, math italic or plain
    assert "packet" in markdown and "per host" in markdown
    pa.array([markdown], type=pa.large_string())  # what convert_pdfs does with every paper's markdown
