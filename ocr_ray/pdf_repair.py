"""Rebuilding a PDF that PDFium cannot open (issue 36 item 2): qpdf, through pikepdf.

PDFium rebuilds a broken cross-reference table itself, but gives up on files whose trailer is
missing, unterminated or not a dictionary, whose xref points nowhere, or whose header is not where
it looks (the robustness corpus: pdf-lib's ``missing_xref_trailer_dict.pdf``, PDFium's own
``trailer_unterminated.pdf`` and ``parser_rebuildxref_error_notrailer.pdf``, qpdf's
``issue-1503.pdf``). qpdf's recovery scans the file for its objects and writes a well-formed one,
which PDFium then opens. A file neither opens (encrypted without its password, no page tree, not a
PDF at all) stays refused with PDFium's reason (``pdf_pages``).
"""
from __future__ import annotations

import io
import logging

# qpdf's recovery logs a warning per damaged object through this logger: the paper's record says
# the file was rebuilt (``conversion.FILE_NOTES``), thousands of log lines would not say more
logging.getLogger("pikepdf._core").setLevel(logging.ERROR)


def rebuild(data: bytes) -> bytes | None:
    """The file as qpdf rewrites it after recovering what it can, or None when qpdf cannot open it."""
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:  # attempt_recovery: scan for objects, new xref
            if pdf.is_encrypted and not pdf.user_password_matched:
                # qpdf opens a file whose *owner* password is empty even though a user password
                # guards it (pypdf's r5/r6-user-password.pdf, pdf.js's pr6531_2.pdf): reading it
                # would bypass the password its author set, so it stays refused as PDFium refuses it
                return None
            out = io.BytesIO()
            pdf.save(out)
            return out.getvalue()
    except Exception:  # noqa: BLE001 - any failure of the rebuild leaves the file refused as it was
        return None
