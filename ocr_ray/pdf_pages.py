"""Reading PDFs in Ray workers: bytes from a filesystem, structural checks, PDFium, a row per page.

Every failure a reader can meet in a PDF becomes a ``PdfReadError`` with a short reason, and
``read_pdf_pages`` turns it into a single error row: one bad PDF fails its own paper, never the
other PDFs of its block. The same checks serve the PDF store (``reviewbench_assets.domain.pdfs``),
so "is this a usable PDF" has one answer where PDFs are stored and where they are read.
"""

from __future__ import annotations

from typing import Any, Iterator

import pyarrow.fs as pafs

from ocr_ray.engine_base import Engine

# Where a PDF's trailer must end; readers such as pdf.js search the last KiB too.
_EOF_WINDOW = 2048


class PdfReadError(Exception):
    """A PDF that cannot yield pages; the message is the short reason reported."""


def _read_bytes(filesystem: pafs.FileSystem, path: str) -> bytes:
    try:
        with filesystem.open_input_file(path) as handle:
            return handle.readall()
    except FileNotFoundError:
        raise PdfReadError(f"missing file: {path}") from None
    except OSError as exc:  # pyarrow reports S3 404s and permission errors as OSError
        if "not found" in str(exc).lower() or "does not exist" in str(exc).lower():
            raise PdfReadError(f"missing file: {path}") from None
        raise PdfReadError(f"cannot read file: {exc}") from None


def _check_pdf_bytes(data: bytes) -> None:
    """Cheap structural checks PDFium does not make.

    PDFium rebuilds a broken cross-reference table, so a truncated download often
    opens and silently loses its last pages; the missing ``%%EOF`` catches that.
    """
    if not data:
        raise PdfReadError("empty file")
    if b"%PDF-" not in data[:1024]:
        raise PdfReadError("not a PDF (no %PDF- header)")
    if b"%%EOF" not in data[-_EOF_WINDOW:]:
        raise PdfReadError("truncated PDF (no %%EOF at end)")


def _open_pdf(data: bytes) -> Any:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    # PDFium rejects a document with an empty page tree without setting its
    # (process-global) last error, so the code left by an earlier document would
    # be reported. Set a sentinel first: opening a missing *path* sets
    # FPDF_ERR_FILE, which loading from memory can never produce itself.
    pdfium_c.FPDF_LoadDocument(b"/nonexistent/ocr-ray-error-sentinel.pdf", None)
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_FILE:
            raise PdfReadError("PDF has zero pages (empty page tree)") from None
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            raise PdfReadError("encrypted PDF (password required)") from None
        if code == pdfium_c.FPDF_ERR_FORMAT:
            raise PdfReadError("corrupt PDF (PDFium: data format error)") from None
        raise PdfReadError(f"unreadable PDF ({exc})") from None


# The same checks serve the PDF store (reviewbench_assets.domain.pdfs) before a PDF is kept.
check_pdf_bytes = _check_pdf_bytes
open_pdf = _open_pdf


def _error_row(task: dict[str, Any], reason: str) -> dict[str, Any]:
    return {
        "task_index": task["task_index"],
        "forum_id": task["forum_id"],
        "page_index": -1,
        "num_pages": 0,
        "text": "",
        "image": b"",
        "route": "",
        "error": reason,
    }


def read_pdf_pages(
    task: dict[str, Any], *, filesystem: pafs.FileSystem, engine: Engine
) -> Iterator[dict[str, Any]]:
    """flat_map UDF: one row per page, or one error row if the PDF is unusable.

    A generator, so Ray can ship a long PDF's rendered pages in several blocks.
    Pages are prepared before anything is yielded: a page that fails half way
    must turn the whole paper into one error row, not a partial paper.
    """
    try:
        data = _read_bytes(filesystem, task["pdf_path"])
        _check_pdf_bytes(data)
        pdf = _open_pdf(data)
    except PdfReadError as exc:
        yield _error_row(task, str(exc))
        return
    rows: list[dict[str, Any]] = []
    try:
        num_pages = len(pdf)
        if num_pages == 0:
            yield _error_row(task, "PDF has zero pages")
            return
        for page_index in range(num_pages):
            page = pdf[page_index]
            try:
                payload = engine.prepare_page(page)
            finally:
                page.close()
            rows.append(
                {
                    "task_index": task["task_index"],
                    "forum_id": task["forum_id"],
                    "page_index": page_index,
                    "num_pages": num_pages,
                    "error": "",
                    **payload,
                }
            )
    except Exception as exc:  # noqa: BLE001 - any PDFium failure is a per-paper error
        yield _error_row(task, f"failed on page {len(rows) + 1}: {type(exc).__name__}: {exc}"[:300])
        return
    finally:
        pdf.close()
    yield from rows
