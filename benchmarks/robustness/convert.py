"""One PDF through the production path, in a pool worker: ``ocr_ray.conversion.convert_pdf`` with the
``text-layer`` engine (what the pipeline's workers call), then, for a paper without markdown, why.

``kind`` of a result:

* ``ok``: markdown (possibly with blocks that fell back: ``degraded``, ``fallbacks``);
* ``refused``: the reading step's checks or PDFium refused the file (``PdfReadError``: not a PDF,
  truncated, encrypted, over a cap, zero pages);
* ``exception``: an exception of ours (or PDFium's, on a page) lost the paper: ``exc`` is its type
  and ``where`` the innermost ``ocr_ray`` frame, from re-running the steps of ``convert_pdf`` one by
  one (the production row only keeps the message);
* ``empty``: read, no text on any page (``conversion.empty_reason``);
* the pool adds ``timeout`` and ``crash`` (``pool.Outcome``).

``readable`` (only computed for papers without markdown): PDFium opens the file, or the file qpdf
rebuilds from it as the reading step does (``ocr_ray.pdf_repair``), and renders its first page, the
definition of a PDF that should never lose its paper.
"""
from __future__ import annotations

import json
import time
import traceback
from typing import Any

_ENGINES: dict[bool, Any] = {}
EMPTY = "no readable text"  # how ``conversion.empty_reason`` starts: every page read, no text


def engine(ocr: bool):
    """The production ``text-layer`` engine (OCR fallback for pages without a usable text layer), or
    the same without OCR (``ocr=False``: a quicker run on a loaded machine)."""
    if ocr not in _ENGINES:
        from ocr_ray.engines import get_engine
        from ocr_ray.routing import TextLayerEngine

        _ENGINES[ocr] = get_engine("text-layer") if ocr else TextLayerEngine(fallback=None)
        _ENGINES[ocr].setup()
    return _ENGINES[ocr]


def innermost(tb: traceback.StackSummary) -> str:
    """The innermost frame of ours (``ocr_ray/...:line``), else the innermost frame."""
    frames = [f for f in tb if "/ocr_ray/" in f.filename] or list(tb)
    if not frames:
        return "?"
    f = frames[-1]
    name = f"ocr_ray/{f.filename.split('/ocr_ray/')[-1]}" if "/ocr_ray/" in f.filename else f.filename.split("site-packages/")[-1]
    return f"{name}:{f.lineno}"


def _exception(exc: BaseException, stage: str) -> dict:
    tb = traceback.extract_tb(exc.__traceback__)
    return {"kind": "exception", "exc": type(exc).__name__, "where": innermost(tb),
            "stage": stage, "message": str(exc)[:300]}


def diagnose(path: str, eng) -> dict:
    """Re-run ``convert_pdf``'s steps one by one to tell a refusal from an exception, and where."""
    from ocr_ray.conversion import markdown_of
    from ocr_ray.pdf_limits import RenderCapError
    from ocr_ray.pdf_pages import PdfReadError, check_page_count, check_pdf_bytes, open_or_rebuild

    try:
        with open(path, "rb") as handle:
            data = handle.read()
        check_pdf_bytes(data)
        pdf, _ = open_or_rebuild(data, [])
    except PdfReadError as exc:
        return {"kind": "refused", "message": str(exc)}
    rows = []
    try:
        check_page_count(len(pdf))
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                rows.append({"forum_id": "x", "page_index": index, "num_pages": len(pdf), **eng.prepare_page(page)})
            finally:
                page.close()
    except (PdfReadError, RenderCapError) as exc:
        return {"kind": "refused", "message": str(exc)}
    except Exception as exc:  # noqa: BLE001 - what we are looking for
        return _exception(exc, f"prepare_page (page {len(rows) + 1})")
    finally:
        pdf.close()
    try:
        markdown_of(eng.process_batch(rows))
    except Exception as exc:  # noqa: BLE001
        return _exception(exc, "layout")
    return {"kind": "empty"}


def open_document(path: str):
    """PDFium's document of the file as the reading step opens it (``ocr_ray.pdf_pages``: qpdf's
    rebuild when PDFium refuses the file, refused when that rebuild lost the content the file
    declared); ``PdfiumError`` when it does not open."""
    import pypdfium2 as pdfium

    from ocr_ray.pdf_pages import PdfReadError, open_or_rebuild

    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return open_or_rebuild(data, [])[0]
    except PdfReadError as exc:
        raise pdfium.PdfiumError(str(exc)) from None


def readable(path: str) -> bool:
    """PDFium opens the file (or qpdf's rebuild of it: ``open_document``) and renders its first page."""
    import pypdfium2 as pdfium

    try:
        doc = open_document(path)
    except pdfium.PdfiumError:
        return False
    try:
        if len(doc) == 0:
            return False
        page = doc[0]
        page.render(scale=0.2).close()
        page.close()
        return True
    except Exception:  # noqa: BLE001 - any failure to render is "not readable"
        return False
    finally:
        doc.close()


def raw_text_seconds(path: str) -> float:
    """PDFium's plain text of every page, timed: the baseline of seconds per page."""
    import pypdfium2 as pdfium

    start = time.perf_counter()
    try:
        doc = pdfium.PdfDocument(path)
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        doc.close()
    except Exception:  # noqa: BLE001 - a baseline that cannot read the file has no time
        return 0.0
    return time.perf_counter() - start


def markdown_blocks(markdown: str) -> int:
    return sum(1 for block in markdown.split("\n\n") if block.strip() and block.strip() != "---")


def fallback_records(paper: dict) -> list[dict]:
    """The blocks that fell back (``fallbacks`` of the paper row, JSON) when the engine reports them."""
    raw = paper.get("fallbacks")
    if not raw:
        return []
    return json.loads(raw) if isinstance(raw, str) else list(raw)


def convert_one(job: dict) -> dict:
    """``job``: ``{"path", "ocr"}`` -> the paper's result (no markdown, only its size)."""
    import pyarrow.fs as pafs

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.layout.fallback import degraded_counts

    eng = engine(job.get("ocr", True))
    start = time.perf_counter()
    paper = convert_pdf({"task_index": 0, "forum_id": "robustness", "pdf_path": job["path"]},
                        filesystem=pafs.LocalFileSystem(), engine=eng)
    seconds = time.perf_counter() - start
    fallbacks = fallback_records(paper)
    out: dict[str, Any] = {
        "kind": "ok", "pages": paper["num_pages"], "seconds": round(seconds, 4),
        "markdown_chars": len(paper["markdown"]), "blocks": markdown_blocks(paper["markdown"]),
        "degraded": degraded_counts(fallbacks),
        "fallbacks": [{k: str(f.get(k, ""))[:200] for k in ("page", "rule", "reason", "detail")}
                      for f in fallbacks[:20]],
    }
    if paper["markdown"]:
        if job.get("baseline"):
            out["raw_seconds"] = round(raw_text_seconds(job["path"]), 4)
        return out
    # no error: every page was read and is blank (``conversion.empty_reason``), an empty paper, not a
    # refusal (the download check ``diagnose`` runs would refuse a file without header or %%EOF)
    read = not paper["error"] or paper["error"].startswith(EMPTY)
    why = {"kind": "empty"} if read else diagnose(job["path"], eng)
    out.update(why, error=paper["error"][:300], readable=readable(job["path"]),
               text_layer=has_text(job["path"]), ocr=bool(job.get("ocr", True)))
    return out


def has_text(path: str) -> bool:
    """PDFium's plain text layer has a letter or digit on some page."""

    try:
        doc = open_document(path)
        try:
            for index in range(min(len(doc), 50)):
                page = doc[index]
                textpage = page.get_textpage()
                text = textpage.get_text_range()
                textpage.close()
                page.close()
                if any(ch.isalnum() for ch in text):
                    return True
        finally:
            doc.close()
    except Exception:  # noqa: BLE001
        return False
    return False
