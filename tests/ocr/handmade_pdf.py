"""PDFs written object by object, for text layers no typesetter here produces (fonts with their own
CMaps, damaged structures): the tests of what the robustness corpus (``benchmarks/robustness``)
found in public PDF libraries' test files, without those files."""
from __future__ import annotations


def stream(body: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(body), extra) + body + b"\nendstream"


def pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (object 1 is the catalog), with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def one_page(content: bytes, font: list[bytes]) -> bytes:
    """One US-letter page drawing ``content`` with font ``/F1`` = ``font[0]`` (objects 5, 6, ...)."""
    return pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>",
                stream(content), *font])


_CMAP = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /%s def /CMapType %d def\n"
         b"%s\nendcmap CMapName currentdict /CMap defineresource pop end end")
_UTF8_SPACE = (b"4 begincodespacerange\n<00> <7F>\n<C080> <DFBF>\n<E08080> <EFBFBF>\n<F0808080> <F7BFBFBF>\n"
               b"endcodespacerange\n")


def utf8_cmap_pdf(text: str) -> bytes:
    """``text`` in a Type0 font whose encoding CMap reads UTF-8 codes (1 to 4 bytes a character, as
    Adobe's ``UniJIS-UTF8-H``) and whose ToUnicode maps only ASCII: for the other characters PDFium
    gives the code itself, the UTF-8 bytes as one number (0xE38081 for "、"), past U+10FFFF."""
    encoding = _CMAP % (b"Utf8", 1, _UTF8_SPACE + b"1 begincidrange <00> <7F> 1 endcidrange\n"
                        b"1 begincidrange <E08080> <EFBFBF> 200 endcidrange")
    tounicode = _CMAP % (b"U", 2, _UTF8_SPACE + b"1 beginbfrange <20> <7E> <0020> endbfrange")
    return one_page(b"BT /F1 24 Tf 72 700 Td <" + text.encode().hex().encode() + b"> Tj ET", [
        b"<< /Type /Font /Subtype /Type0 /BaseFont /Sans /Encoding 8 0 R /ToUnicode 9 0 R /DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Sans /CIDSystemInfo << /Registry (Adobe) "
        b"/Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R >>",
        b"<< /Type /FontDescriptor /FontName /Sans /Flags 32 /FontBBox [0 -200 1000 900] /ItalicAngle 0 "
        b"/Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>",
        stream(encoding), stream(tounicode)])
