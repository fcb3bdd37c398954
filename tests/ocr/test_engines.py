"""OCR engines: RapidOCR on scanned pages, `auto` routing per page, vLLM configuration (CPU only)."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from ocr_ray.conversion import PAGE_SEPARATOR, PdfTask
from ocr_ray.engine_base import EngineNotAvailableError
from ocr_ray.engines import get_engine
from ocr_ray.ocr_engines import RapidOcrEngine, TesseractEngine
from ocr_ray.pipeline import run_pipeline
from ocr_ray.routing import LAYOUT_VERSION, AutoEngine
from tests.ocr.conftest import page_sentences, write_two_column_pdf


def scan_pdf(src, dst, longest_side=1288):
    """The 'scanned' version of a PDF: each page rasterised, wrapped in a PDF without text layer."""
    doc = pdfium.PdfDocument(str(src))
    out = canvas.Canvas(str(dst), pagesize=letter)
    from reportlab.lib.utils import ImageReader
    for i in range(len(doc)):
        page = doc[i]
        w, h = page.get_size()
        img = page.render(scale=longest_side / max(w, h)).to_pil()
        buf = io.BytesIO()
        img.convert("RGB").save(buf, format="JPEG", quality=90)
        buf.seek(0)
        out.drawImage(ImageReader(buf), 0, 0, width=w, height=h)
        out.showPage()
        page.close()
    doc.close()
    out.save()
    return dst


def test_engine_versions_are_part_of_the_cache_id():
    rapid, auto = RapidOcrEngine(), AutoEngine(ocr=RapidOcrEngine())
    assert rapid.cache_id.startswith("rapidocr@3.") and "PP-OCRv6" in rapid.cache_id
    assert auto.cache_id.startswith("auto@") and rapid.cache_id in auto.cache_id
    assert get_engine("text-layer").cache_id.startswith(f"text-layer@{LAYOUT_VERSION}-layout-recode+ocr=rapidocr@")  # layout step, recoding, OCR fallback
    assert 0 < rapid.num_cpus < 1 and rapid.uses_actor  # fractional CPUs: no deadlock on 2 cores


@pytest.mark.slow
def test_rapidocr_and_auto_on_born_digital_and_scanned_pages(ray_session, tmp_path):
    """One 2-page born-digital paper and its scanned twin: `auto` reads the first from the text
    layer and sends the scan to RapidOCR; RapidOCR reads the scan's known sentences."""
    digital = write_two_column_pdf(tmp_path / "digital.pdf", "paperD", 1)
    # a prose page long enough to count as a usable text layer
    c = canvas.Canvas(str(tmp_path / "prose.pdf"), pagesize=letter)
    t = c.beginText(72, 700)
    t.setFont("Helvetica", 10)
    for i in range(20):
        t.textLine(f"Line {i}: we evaluate the method on several benchmarks and report the results.")
    c.drawText(t)
    c.showPage()
    c.save()
    scanned = scan_pdf(digital, tmp_path / "scanned.pdf")
    tasks = [PdfTask("prose", str(tmp_path / "prose.pdf")), PdfTask("scanned", str(scanned))]
    prose, scan = run_pipeline(tasks, engine="auto")
    assert prose.error is None and scan.error is None
    assert prose.pages_by_engine == {"text-layer": 1}
    assert scan.pages_by_engine == {"rapidocr": 1}
    left, right = page_sentences("paperD", 1)
    assert left in scan.markdown and right in scan.markdown
    assert scan.markdown.index(left) < scan.markdown.index(right)  # column order
    assert "Line 19: we evaluate" in prose.markdown and PAGE_SEPARATOR not in prose.markdown


@pytest.mark.slow
def test_tesseract_reads_a_scanned_two_column_page(ray_session, tmp_path):
    """Debian's tesseract-ocr (installed by `make system-deps`) on a scan with no text layer: the
    known sentences of both columns, in column order; one process per page, single-threaded."""
    engine = get_engine("tesseract")
    assert engine.cache_id.startswith("tesseract@tesseract 5") and engine.needs_image
    digital = write_two_column_pdf(tmp_path / "digital.pdf", "paperT", 2)
    scanned = scan_pdf(digital, tmp_path / "scanned.pdf")
    (paper,) = run_pipeline([PdfTask("scanned", str(scanned))], engine="tesseract")
    assert paper.error is None and paper.num_pages == 2 and paper.pages_by_engine == {"tesseract": 2}
    pages = paper.markdown.split(PAGE_SEPARATOR)
    for n, page in enumerate(pages, 1):
        text = " ".join(page.split())
        left, right = page_sentences("paperT", n)
        # OCR may miss a character (e.g. the forum id's last letter); the order must be right
        assert text.index(left[:30]) < text.index(right[:30]), text
        assert _cer(text, " ".join([left, *FILLER, right, *FILLER])) < 0.05, text


def _cer(got: str, want: str) -> float:
    import difflib

    return 1 - difflib.SequenceMatcher(None, got, want, autojunk=False).ratio()


FILLER = [f"filler line {f} of this column" for f in range(3)]


def test_tesseract_missing_binary_says_what_to_install():
    with pytest.raises(EngineNotAvailableError, match="apt-get install tesseract-ocr"):
        TesseractEngine(binary="/nonexistent/tesseract").check_available()


def test_vllm_configuration_building():
    from ocr_ray.vllm_engine import DEFAULT_MODEL, VllmEngine, strip_front_matter

    engine = VllmEngine(model="lightonai/LightOnOCR-2-1B", batch_size=32, max_tokens=4096, num_gpus=2,
                        concurrency=3, accelerator_type="H100")
    kw = engine.config_kwargs()
    assert kw["model_source"] == "lightonai/LightOnOCR-2-1B" and kw["batch_size"] == 32
    assert kw["concurrency"] == 3 and kw["accelerator_type"] == "H100"
    assert kw["engine_kwargs"]["tensor_parallel_size"] == 2
    assert kw["engine_kwargs"]["limit_mm_per_prompt"] == {"image": 1, "video": 0}
    assert kw["prepare_multimodal_stage"] == {"enabled": True} and kw["should_continue_on_error"]
    assert VllmEngine().model == DEFAULT_MODEL and "max_tokens=8000" in VllmEngine().cache_id
    row = {"task_index": 0, "forum_id": "f", "page_index": 0, "num_pages": 1, "error": "", "text": "t",
           "route": "vllm", "image": b"\xff\xd8jpeg"}
    req = engine.preprocess(row)
    parts = req["messages"][0]["content"]
    assert parts[0]["type"] == "image_url" and parts[0]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert req["sampling_params"]["max_tokens"] == 4096 and not req["passthrough"]
    out = engine.postprocess({**req, "generated_text": "---\nprimary_language: en\n---\nHello $x^2$"})
    assert out["page_text"] == "Hello $x^2$" and out["page_engine"] == "vllm"
    routed = engine.preprocess({**row, "route": "text-layer"})
    assert routed["passthrough"] and engine.postprocess({**routed, "generated_text": "?"})["page_text"] == "t"
    assert strip_front_matter("no front matter") == "no front matter"
    # ray 2.60's real config class accepts these arguments (no vllm needed to construct it)
    try:
        import ray.data.llm  # noqa: F401
    except ImportError:
        pytest.skip("ray.data.llm needs ray[llm] extras (aiohttp) to import")
    config = engine.processor_config()
    assert config.model_source == "lightonai/LightOnOCR-2-1B"
