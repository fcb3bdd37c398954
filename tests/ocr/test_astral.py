"""Characters beyond the BMP in the text layer (math italic 𝑝 of Libertine and unicode-math fonts,
as in acmart papers): PDFium hands each over as two UTF-16 halves at two indexes. Kept apart,
the halves made fragments and markdown that cannot be written as UTF-8 (two real papers of the
development set: pyarrow and json.dumps(...).encode() raise UnicodeEncodeError). Typeset with
pdfTeX's own ToUnicode for two Greek glyphs mapped to their math italic code points."""

from __future__ import annotations

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts


def test_characters_beyond_the_bmp_are_one_character_each(tmp_path):
    preamble = "\\pdfgentounicode=1 \\pdfglyphtounicode{alpha}{1D6FC}\\pdfglyphtounicode{beta}{1D6FD}"
    (page,) = typeset_layouts(tmp_path, "amsmath", "\\thispagestyle{empty}\\noindent Let $\\alpha + \\beta_{\\alpha}$ "
                              "be the rate of the packet.\\[ \\alpha + \\beta_{\\alpha} = 1 \\]", preamble=preamble)
    text = " ".join(f.text for f in page.fragments)
    assert "𝛼" in text and "𝛽" in text, ascii(text)
    text.encode("utf-8")  # no lone surrogate
    glyphs = [glyph[0] for fragment in page.fragments for glyph in fragment.glyphs or []]
    assert "𝛼" in glyphs and "".join(glyphs).encode("utf-8"), glyphs  # what the math builder reads
    (markdown,) = compose_pages([page.to_json()])
    markdown.encode("utf-8")
    assert "be the rate of the packet." in markdown
