"""Issue 27: TeX's ligatures (ff, fi, fl, ffi, ffl) in fonts that give them no Unicode. pdfTeX's
fonts are bitmaps (Type 3) where no Type 1 version is in its map: T1 text on a TeX system without
cm-super (where the issue's papers were built). Such a font has neither glyph names (``/a28``) nor
a font name nor a ToUnicode map (``\\pdfgentounicode`` cannot help it), and the text layer dropped
its codes 0x1B-0x1F: "con guration", "signi cantly", " rst", and the hole was wide enough to cut
the line. The same paragraph in T1 and OT1, with and without ``\\pdfgentounicode=1``, in Type 1
fonts and in bitmap fonts (the Type 1 taken out of pdfTeX's map, as on a system without it), must
come back word for word, each printed line one fragment. An OT1 bitmap font is nameless too: its
own codes (0x0B-0x0F) tell its encoding."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ocr_ray.layout import compose_pages, tex_encodings
from ocr_ray.layout.tex_encodings import encoding_by_name, encoding_by_usage
from tests.ocr.conftest import typeset_layouts

WORDS = ("The configuration of the office significantly changed the first flow of the affine baffle. "
         "Efficient shuffling offers fluffy waffles and scaffolds; the officer's difficult affluence "
         "baffled the first fiftieth flight, and a shuffled trefoil of fluent, fluffier offal.")
GENTOUNICODE = "\\pdfgentounicode=1 \\input glyphtounicode"
T1 = "\\usepackage[T1]{fontenc}"
BITMAP = {"T1": "\\pdfmapline{-ecrm1000}", "OT1": "\\pdfmapline{-cmr10}"}  # no Type 1: PK bitmaps
VARIANTS = {
    "t1": T1,
    "t1-gentounicode": f"{T1}\n{GENTOUNICODE}",
    "t1-bitmap": f"{T1}\n{BITMAP['T1']}",
    "t1-bitmap-gentounicode": f"{T1}\n{BITMAP['T1']}\n{GENTOUNICODE}",
    "ot1": "",
    "ot1-gentounicode": GENTOUNICODE,
    "ot1-bitmap": BITMAP["OT1"],
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ligatures_come_back_and_keep_their_lines_whole(tmp_path, variant):
    (page,) = typeset_layouts(tmp_path, "amsmath", f"\\thispagestyle{{empty}}\\noindent {WORDS}",
                              preamble=VARIANTS[variant])
    lines = page.fragments
    # every printed line is one fragment: a ligature's hole no longer cuts it
    assert len({round(f.y0) for f in lines}) == len(lines), [f.text for f in lines]
    (markdown,) = compose_pages([page.to_json()])
    words = re.findall(r"[\w']+", markdown.replace("’", "'"))
    assert words == re.findall(r"[\w']+", WORDS), markdown


def test_a_font_name_implies_its_encoding():
    ot1, t1 = tex_encodings.OT1, tex_encodings.T1
    assert encoding_by_name("CMR10") is ot1 and encoding_by_name("CMBX12") is ot1
    assert encoding_by_name("CMTT10") is tex_encodings.OT1_TT  # typewriter: arrows, no ligatures
    assert encoding_by_name("SFRM1000") is t1 and encoding_by_name("ECBX1200") is t1
    for other in ("CMUSERIF-ROMAN", "LMROMAN10-REGULAR", "NIMBUSROMNO9L-REGU", "SFPRODISPLAY-REGULAR", ""):
        assert encoding_by_name(other) is None, other
    assert ot1[0x0C] == t1[0x1C] == "\ufb01"


def test_a_nameless_font_is_judged_by_its_own_codes():
    """pdfTeX's bitmap fonts have no name: ligatures and T1's quotes tell T1 from OT1; a font whose
    codes tell nothing (one symbol at code 0, an author mark of a real LNCS paper) gets no table
    (it read "Tomescu`,1")."""
    assert encoding_by_usage(Counter({0x1C: 3, 0x10: 1, 0x0B: 1})) is tex_encodings.T1
    assert encoding_by_usage(Counter({0x0C: 2, 0x0E: 1})) is tex_encodings.OT1
    assert encoding_by_usage(Counter({0x00: 1})) is None
