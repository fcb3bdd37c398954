"""All text of a PDF (its text layer), for tests that look for a revision's known markers."""
import pypdfium2


def pdf_text(src: bytes | str) -> str:
    """`src`: PDF bytes or a file path."""
    doc = pypdfium2.PdfDocument(src)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
