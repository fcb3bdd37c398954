"""Reading PDFs in Ray workers: bytes from a filesystem, structural checks, PDFium, a row per page.

Every failure a reader can meet in a PDF becomes a ``PdfReadError`` with a short reason, and
``read_pdf_pages`` turns it into a single error row: one bad PDF fails its own paper, never the
other PDFs of its block. The same checks serve the PDF store (``reviewbench_assets.stages.pdf_fetch``),
so "is this a usable PDF" has one answer where PDFs are stored and where they are read.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from typing import Any

import pyarrow.fs as pafs

from ocr_ray.engine_base import FAILED, PLAIN, Engine, normalize_page_text, page_text_layer
from ocr_ray.layout.fallback import PAGE_SECONDS, guarded
from ocr_ray.layout.page_objects import blank_page
from ocr_ray.pdf_limits import PDF_LIMIT_VARS, RenderCapError, pdf_limits
from ocr_ray.pdf_repair import rebuild

# Where a PDF's trailer must end; readers such as pdf.js search the last KiB too.
_EOF_WINDOW = 2048
_PADDING = b"\x00 \t\r\n\f"


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


def _structure_problems(data: bytes) -> list[tuple[str, str]]:
    """Cheap structural checks PDFium does not make: (code, reason) for each that fails.

    PDFium rebuilds a broken cross-reference table, so a truncated download often
    opens and silently loses its last pages; the missing ``%%EOF`` catches that.
    """
    if not data:
        raise PdfReadError("empty file")
    problems = []
    if b"%PDF-" not in data[:1024]:
        problems.append(("no_header", "not a PDF (no %PDF- header)"))
    # padding after the end marker (up to 1 MiB) is no truncation: a PDF printed by a browser through
    # cairo ends in 20 KB of NUL bytes after its %%EOF (pypdf's selenium-pypdf-issue-177.pdf), refused
    if b"%%EOF" not in data[-(_EOF_WINDOW + (1 << 20)):].rstrip(_PADDING)[-_EOF_WINDOW:]:
        problems.append(("truncated", "truncated PDF (no %%EOF at end)"))
    return problems


def _check_pdf_bytes(data: bytes) -> None:
    """A download's checks (the PDF stage: a cut download is refused and fetched again)."""
    problems = _structure_problems(data)
    if problems:
        raise PdfReadError(problems[0][1])
    _check_limits(data)


# Bounded work per PDF (issue 13), each cap configurable by environment variable. A PDF over a cap
# is refused with its reason before PDFium parses it: a 1 MB file can inflate to 1 GiB and take
# its worker to gigabytes of RSS (measured: 2.25 GB).
_STREAM_RE = re.compile(rb"stream\r?\n")
_IMAGE_RE = re.compile(rb"/Subtype\s*/Image")


def _inflated(data: bytes, start: int, budget: int) -> int:
    """Bytes the Flate stream at `start` inflates to, counted in bounded steps up to just over
    `budget` (never holding more than a chunk); 0 when it is not Flate (DCT, raw, damaged: PDFium
    judges those)."""
    end = data.find(b"endstream", start)
    z = zlib.decompressobj()
    chunk, total = data[start: end if end > 0 else len(data)], 0
    try:
        while chunk and total <= budget and not z.eof:
            out = z.decompress(chunk, 1 << 20)
            if not out and z.unconsumed_tail == chunk:  # no progress: nothing more to inflate
                break
            total += len(out)
            chunk = z.unconsumed_tail
    except zlib.error:
        return 0
    return total


def _check_limits(data: bytes) -> None:
    """Inflated size of the Flate streams PDFium inflates to read a page's text (content, fonts,
    object streams: one budget for the document) and, image by image, of each image stream (its own
    budget, the image cap: PDFium decodes an image only to render its page, one page at a time), and
    Images are kept out of the document's budget because real papers hold many large ones: a cas-dc
    paper of the dev set (9.7 MB, 43 figures) inflates to 1.6 GiB of images and 5 MiB of everything
    else, and was refused whole. What rendering an image allocates is checked when a page is
    rendered (``engine_base.render_page_jpeg``), not here: the text layer never decodes images, and
    that paper's 18286x8997 figure refused it whole too."""
    lim = pdf_limits()
    budget, image_budget = lim["max_inflated_mb"] << 20, lim["max_image_mb"] << 20
    total = 0
    for m in _STREAM_RE.finditer(data):
        head = data[max(data.rfind(b"obj", 0, m.start()), 0): m.start()]
        if _IMAGE_RE.search(head):
            if _inflated(data, m.end(), image_budget) > image_budget:
                raise PdfReadError(f"over a cap: an image stream inflates to more than {lim['max_image_mb']} MiB "
                                   f"({PDF_LIMIT_VARS['max_image_mb'][0]})")
            continue
        total += _inflated(data, m.end(), budget - total)
        if total > budget:
            raise PdfReadError(f"over a cap: streams inflate to more than {lim['max_inflated_mb']} MiB "
                               f"({PDF_LIMIT_VARS['max_inflated_mb'][0]})")


def check_page_count(pages: int) -> None:
    cap = pdf_limits()["max_pages"]
    if pages > cap:
        raise PdfReadError(f"over a cap: {pages} pages, more than {cap} ({PDF_LIMIT_VARS['max_pages'][0]})")


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


REBUILT_EMPTY = "pdf/rebuilt_empty"  # the reason code of a rebuilt file without content
REPAIRED = "repaired"  # the note of a file PDFium opened only once qpdf rebuilt it (``pdf_repair``)


class RebuiltEmptyError(PdfReadError):
    """qpdf rebuilt the file PDFium refused, but no page of it has anything drawn."""


def _drawn(pdf: Any, index: int) -> bool:
    page = pdf[index]
    try:
        return not blank_page(page)
    finally:
        page.close()


def _open_or_rebuild(data: bytes, problems: list[tuple[str, str]]) -> tuple[Any, str]:
    """PDFium's document of ``data``; when PDFium cannot open it, of the file qpdf rebuilds from it
    (``pdf_repair``), with the note ``repaired=<why PDFium refused>`` (else ``""``). When neither
    opens, PDFium's refusal is raised. The rebuilt file passes the same caps as the original."""
    try:
        return _open_pdf(data), ""
    except PdfReadError as exc:
        refused = exc
    fixed = rebuild(data)
    if fixed is None:
        raise refused
    _check_limits(fixed)
    try:
        pdf = _open_pdf(fixed)
    except PdfReadError:
        raise refused from None
    why = problems[0][1] if problems else str(refused)
    if b"/Contents" in data and not any(_drawn(pdf, index) for index in range(len(pdf))):
        # qpdf keeps the page tree of a file cut in half and drops the content it cannot find: pages
        # with nothing drawn where the file declared content. That is the file's damage, not an empty
        # paper: an error row, never a silent empty one (tests/ocr/test_pipeline.py's truncated file).
        # A file whose pages never had content (PDFium's trailer_as_hexstring.pdf) is a blank paper
        pdf.close()
        raise RebuiltEmptyError(f"{why} (qpdf's rebuild has nothing drawn on any page: {REBUILT_EMPTY})")
    return pdf, f"{REPAIRED}={why.replace(',', ';')}"


# The same checks serve the PDF store (reviewbench_assets.stages.pdf_fetch) before a PDF is kept.
check_pdf_bytes = _check_pdf_bytes
open_pdf = _open_pdf
open_or_rebuild = _open_or_rebuild  # the reading step's open (benchmarks/robustness diagnoses with it)


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
        "notes": "",
    }


def _page_payload(pdf: Any, page_index: int, engine: Engine) -> dict[str, Any]:
    """One page's payload; a page PDFium fails on costs that page, not the paper. Its positioned
    text failing (an exception, or past ``PAGE_SECONDS`` of CPU: a page of a hundred thousand
    characters), the page is read as PDFium's plain text (route ``text-layer:plain``); when that fails
    too, it is an empty page (``<engine>:failed``). The caps (``PdfReadError``, ``RenderCapError``)
    still refuse the paper: they bound what one PDF may cost."""
    try:
        page = pdf[page_index]
    except Exception:  # noqa: BLE001 - a page object PDFium cannot load
        return {"text": "", "image": b"", "route": f"{engine.name}:{FAILED}"}
    caps: list[Exception] = []

    def prepare() -> dict[str, Any]:
        try:
            return engine.prepare_page(page)
        except (PdfReadError, RenderCapError) as exc:
            caps.append(exc)  # not the page's fault: raised again below, out of the guard
            return {}

    def plain() -> dict[str, Any]:
        try:
            text = normalize_page_text(page_text_layer(page))
        except Exception:  # noqa: BLE001 - not even the plain text
            return {"text": "", "image": b"", "route": f"{engine.name}:{FAILED}"}
        return {"text": text, "image": b"", "route": f"text-layer:{PLAIN}"}

    try:
        payload = guarded("page", prepare, plain, seconds=PAGE_SECONDS)
    finally:
        page.close()
    if caps:
        raise caps[0]
    return payload


def read_pdf_pages(
    task: dict[str, Any], *, filesystem: pafs.FileSystem, engine: Engine
) -> Iterator[dict[str, Any]]:
    """flat_map UDF: one row per page, or one error row if the PDF is unusable.

    A generator, so Ray can ship a long PDF's rendered pages in several blocks.
    Pages are prepared before anything is yielded: a page that fails half way
    must turn the whole paper into one error row, not a partial paper.
    """
    problems: list[tuple[str, str]] = []
    try:
        data = _read_bytes(filesystem, task["pdf_path"])
        problems = _structure_problems(data)
        _check_limits(data)
        pdf, repaired = _open_or_rebuild(data, problems)
    except RebuiltEmptyError as exc:
        yield _error_row(task, str(exc))  # the structural problem and what the rebuild lacked
        return
    except PdfReadError as exc:
        # what PDFium cannot open: the structural problem says why better than PDFium does
        yield _error_row(task, problems[0][1] if problems else str(exc))
        return
    # a file PDFium opens is read, whatever its header or end marker: what it could rebuild is the
    # paper's text, and the paper's record says what was wrong (``notes``: truncated, no_header, and
    # repaired when PDFium opened only qpdf's rebuilt file)
    notes = ",".join([code for code, _ in problems] + ([repaired] if repaired else []))
    rows: list[dict[str, Any]] = []
    try:
        num_pages = len(pdf)
        if num_pages == 0:
            yield _error_row(task, "PDF has zero pages")
            return
        check_page_count(num_pages)
        for page_index in range(num_pages):
            payload = _page_payload(pdf, page_index, engine)
            rows.append(
                {
                    "task_index": task["task_index"],
                    "forum_id": task["forum_id"],
                    "page_index": page_index,
                    "num_pages": num_pages,
                    "error": "",
                    "notes": notes,
                    **payload,
                }
            )
    except (PdfReadError, RenderCapError) as exc:
        yield _error_row(task, str(exc))
        return
    except Exception as exc:  # noqa: BLE001 - any PDFium failure is a per-paper error
        yield _error_row(task, f"failed on page {len(rows) + 1}: {type(exc).__name__}: {exc}"[:300])
        return
    finally:
        pdf.close()
    yield from rows
