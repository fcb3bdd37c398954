"""Issue 36 (real scans): a page scanned a quarter turn off or upside down (ocrmypdf's cardinal.pdf:
one product sheet at 90 and 180 degrees). RapidOCR read each line right (its crops are turned and
its angle classifier flips them) but the lines' boxes stayed on the turned page, so the reading order
ran from the last line up, or across the columns: one run-on paragraph starting at the page's end.
The page is now turned upright first (``ocr_ray.ocr_orientation``). Truth: the LaTeX source below."""
from __future__ import annotations

import io
import json
import re

import pytest

from tests.ocr.scanned import typeset_pdf

_TOPICS = ["crawling of the submissions", "threads of the public discussion", "revisions of each paper",
           "conversion of the full text", "tables of the experiments"]


def _paragraph(topic: str) -> str:
    return (f"The {topic} is the subject of this paragraph, which describes it in enough words to fill several "
            f"lines of the page. We explain how the {topic} was handled and what the measurements showed.")


def _turned_scan(pdf, out, transpose) -> None:
    """The page rendered at 200 dpi, turned by ``transpose`` (a PIL transpose: the sheet fed sideways
    or upside down; the scan's page takes the turned image's size), as an image-only PDF."""
    import pypdfium2 as pdfium
    from PIL import Image

    doc = pdfium.PdfDocument(str(pdf))
    image = doc[0].render(scale=200 / 72, grayscale=True).to_pil().convert("L")
    doc.close()
    if transpose is not None:
        image = image.transpose(transpose)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    Image.open(io.BytesIO(buffer.getvalue())).save(out, "PDF", resolution=200.0)


@pytest.mark.parametrize("turn", ["ROTATE_90", "ROTATE_180", "ROTATE_270"])
def test_a_page_scanned_sideways_or_upside_down_reads_in_order(tmp_path, turn):
    import pyarrow.fs as pafs
    from PIL import Image

    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    body = "\n\n".join(_paragraph(t) for t in _TOPICS)
    pdf = typeset_pdf(tmp_path, body, r"\usepackage[margin=1in]{geometry}\pagestyle{empty}")
    _turned_scan(pdf, tmp_path / "scan.pdf", getattr(Image.Transpose, turn))
    row = convert_pdf({"task_index": 0, "forum_id": "scan", "pdf_path": str(tmp_path / "scan.pdf")},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert not row["error"] and all(r.endswith(":image_only") for r in json.loads(row["engine_pages"]))
    text = re.sub(r"\s+", " ", row["markdown"]).strip()
    found = [text.find(f"The {topic} is the subject of this paragraph") for topic in _TOPICS]
    assert all(i >= 0 for i in found) and found == sorted(found), (found, text[:400])
    whole = sum(re.sub(r"\s+", " ", _paragraph(t)) in text for t in _TOPICS)
    assert whole >= len(_TOPICS) - 1, text  # one OCR slip at most


@pytest.mark.parametrize(("turn", "turns"), [(None, 0), ("ROTATE_180", 2)])
def test_the_angle_classifier_runs_once_per_reading_of_the_page(tmp_path, monkeypatch, turn, turns):
    """The orientation vote takes the classifier's labels of the crops it saw while the page was read;
    it ran the model a second time on the voting lines cut out again (issue 36: cost). A page read once
    (upright) runs it once; a page turned upright and read again, twice. The direction found stays."""
    import pypdfium2 as pdfium
    from PIL import Image

    from ocr_ray.engines import get_engine

    body = "\n\n".join(_paragraph(t) for t in _TOPICS)
    pdf = typeset_pdf(tmp_path, body, r"\usepackage[margin=1in]{geometry}\pagestyle{empty}")
    _turned_scan(pdf, tmp_path / "scan.pdf", getattr(Image.Transpose, turn) if turn else None)
    doc = pdfium.PdfDocument(str(tmp_path / "scan.pdf"))
    buffer = io.BytesIO()
    doc[0].render(scale=1288 / max(doc[0].get_size())).to_pil().convert("RGB").save(buffer, "JPEG", quality=90)
    engine = get_engine("rapidocr")
    engine.setup()
    classifier = type(engine._ocr._load_cls_model())
    calls = []
    original = classifier.__call__

    def counting(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(classifier, "__call__", counting)
    boxes, texts, _, _, made = engine.upright_lines(buffer.getvalue())
    assert made == turns
    assert len(calls) == (2 if turns else 1)
    assert any("The crawling of the submissions is the subject" in t for t in texts), texts


_SECTIONS = ["Crawling the Submissions", "Reading the Discussion", "Keeping the Revisions", "Converting the Full Text",
             "Reading the Tables"]


def test_a_scan_stored_sideways_and_shown_upright_by_rotate_90_reads_as_shown(tmp_path):
    """A scanner's landscape sheet shown upright by the page's ``/Rotate 90`` (ocrmypdf's rotated_skew.pdf,
    the real scans' linn-rotated-skew): the page is rendered as shown, but since 83ab976 the text
    layer's layout is in the page's own, unrotated frame (``rotated.page_size``), and the OCR'd lines
    were scaled by that frame's width (the shown page's height): a third too large, the page's lower
    part beyond its foot, its heading lines grouped with other text. Drawn here the same way (the scan
    turned a quarter clockwise in a landscape page, ``/Rotate 90`` set): it reads as the upright scan
    does (the last section, at the foot, was lost). Truth: the LaTeX source below; olmocr's present and order tests."""
    import pyarrow.fs as pafs
    import pypdfium2 as pdfium
    from PIL import Image

    from benchmarks.fulltext_real.olmocr_judge import judge
    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    body = "\\section*{Notes on the Corpus}\n" + "\n\n".join(  # a full page: its lower part fell off the page
        f"\\section*{{{title}}}\n{_paragraph(topic)} {_paragraph(topic)}"
        for title, topic in zip(_SECTIONS, _TOPICS, strict=True))
    pdf = typeset_pdf(tmp_path, body, r"\usepackage[letterpaper,margin=1in]{geometry}\pagestyle{empty}")
    _turned_scan(pdf, tmp_path / "upright.pdf", None)
    _turned_scan(pdf, tmp_path / "landscape.pdf", Image.Transpose.ROTATE_90)  # counter-clockwise: stored sideways
    doc = pdfium.PdfDocument(str(tmp_path / "landscape.pdf"))
    doc[0].set_rotation(90)  # shown turned clockwise: upright
    doc.save(str(tmp_path / "turned.pdf"))
    doc.close()
    tests = [{"id": f"title-{k}", "type": "present", "text": title} for k, title in enumerate(_SECTIONS)]
    tests += [{"id": f"para-{k}", "type": "present", "text": _paragraph(t)} for k, t in enumerate(_TOPICS)]
    tests += [{"id": f"order-{k}", "type": "order", "before": title, "after": f"The {topic} is the subject"}
              for k, (title, topic) in enumerate(zip(_SECTIONS, _TOPICS, strict=True))]
    verdicts = {}
    for name in ("upright", "turned"):
        row = convert_pdf({"task_index": 0, "forum_id": "scan", "pdf_path": str(tmp_path / f"{name}.pdf")},
                          filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
        assert not row["error"] and all(r.endswith(":image_only") for r in json.loads(row["engine_pages"]))
        verdicts[name] = (judge(row["markdown"], tests), row["markdown"])
    failed = {name: sorted(k for k, ok in verdicts[name][0].items() if not ok) for name in verdicts}
    # one OCR slip at most (a heading's present test and its order test: "Crawling theSubmissions")
    assert len(failed["upright"]) <= 2, verdicts["upright"]  # the guard: the same scan upright
    assert len(failed["turned"]) <= 2 and not {"title-4", "para-4", "order-4"} & set(failed["turned"]), verdicts["turned"]
    assert verdicts["turned"][1].startswith("# Notes on the Corpus"), verdicts["turned"][1][:200]
