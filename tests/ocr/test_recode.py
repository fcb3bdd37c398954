"""Recoding a lying text layer from OCR'd lines (``ocr_ray.layout.recode``, ``ocr_ray.text_repair``):
pure tests on fragments whose fonts follow known substitution ciphers. The end-to-end case, a
pdflatex paper with a broken ToUnicode map read by RapidOCR, is in ``test_fulltext``."""
from __future__ import annotations

import random
import string

import pytest

from ocr_ray.layout.model import Fragment, PageLayout
from ocr_ray.layout.recode import RECODE_MIN_AGREEMENT, agreement, aligned_pairs, choose_sample, cross_agreement, learn
from ocr_ray.text_repair import recode_garbled

SENTENCES = [
    "Attention over long sequences is expensive because every position interacts with every other.",
    "We study a family of sparse patterns in which each position attends to a local window.",
    "The patterns keep most of the accuracy of full attention on document classification.",
    "Quality judgements by expert reviewers vary with the confidence they report for each paper.",
    "Running headers and page numbers occupy the same position on many pages of a journal.",
    "Tables are found from the geometry of characters and the ruling lines drawn between rows.",
    "Jack quickly mixed the zebra puzzle while the vexed wizard jumped over boxes of frozen quince.",
    "Evaluation has moved from edit distance over whole pages toward targeted unit checks.",
]


def _cipher(seed: int) -> dict[str, str]:
    rng = random.Random(seed)
    out = {}
    for alphabet in (string.ascii_lowercase, string.ascii_uppercase):
        shuffled = list(alphabet)
        rng.shuffle(shuffled)
        out.update(zip(alphabet, shuffled, strict=False))
    return out


def _encode(text: str, cipher: dict[str, str]) -> str:
    return "".join(cipher.get(ch, ch) for ch in text)


def _fragment(text: str, font: str, y: float = 0.0) -> Fragment:
    return Fragment(50, y, 300, y + 10, text, 10.0, font=font)


def _pairs(font: str, cipher: dict[str, str], sentences=SENTENCES):
    return [(_fragment(_encode(s, cipher), font), s) for s in sentences]


def test_a_substitution_per_font_is_learnt_and_undone():
    body, bold = _cipher(1), _cipher(2)  # two fonts, two different broken maps
    samples = _pairs("BODY", body) + _pairs("BOLD", bold)
    recoding = learn(samples)
    for font, cipher in (("BODY", body), ("BOLD", bold)):
        unseen = "Every paper was reviewed by three experts."
        assert recoding.text(font, _encode(unseen, cipher)) == unseen
    assert agreement(recoding, samples) == pytest.approx(1.0)
    assert cross_agreement(samples) >= RECODE_MIN_AGREEMENT


def test_ocr_mistakes_are_outvoted():
    cipher = _cipher(3)
    rng = random.Random(0)
    noisy = []
    for fragment, truth in _pairs("F", cipher) * 2:
        chars = list(truth)
        for i in rng.sample(range(len(chars)), 3):  # ~3 % of the characters misread
            if chars[i].isalpha():
                chars[i] = "e" if chars[i] != "e" else "c"
        noisy.append((fragment, "".join(chars)))
    recoding = learn(noisy)
    assert recoding.text("F", _encode("the accuracy of attention", cipher)) == "the accuracy of attention"
    assert cross_agreement(noisy) >= RECODE_MIN_AGREEMENT


def test_a_text_layer_that_is_no_substitution_is_not_recoded():
    # every occurrence of a letter gets a random code: no table can explain the OCR'd lines
    rng = random.Random(4)
    samples = [(_fragment("".join(rng.choice(string.ascii_letters) if c.isalpha() else c for c in s), "F"), s)
               for s in SENTENCES]
    assert cross_agreement(samples) < RECODE_MIN_AGREEMENT


def test_words_that_ocr_merges_or_splits_are_skipped_not_misaligned():
    pairs = aligned_pairs("Bcd efg hij klm", "abc def ghijkl")  # OCR merged the last two words
    assert pairs == list(zip("Bcd", "abc", strict=False)) + list(zip("efg", "def", strict=False))


def test_the_sample_reaches_the_one_word_holding_a_rare_capital():
    cipher = _cipher(5)
    lines = [(0, _fragment(_encode(s, cipher), "F", y=20 * i)) for i, s in enumerate(SENTENCES * 3)]
    heading = (1, _fragment(_encode("Method", cipher), "F"))
    sample = choose_sample(lines + [heading], budget=10)
    assert heading in sample  # the only "M" of the paper, although its line is the shortest
    assert len(sample) <= 10


def test_fragment_font_round_trips_and_old_layouts_still_load():
    layout = PageLayout(612, 792, [_fragment("abc def", "CMR10"), _fragment("xyz", "")])
    back = PageLayout.from_json(layout.to_json())
    assert [f.font for f in back.fragments] == ["CMR10", ""]
    old = '{"layout": 1, "w": 612, "h": 792, "src": "text-layer", "f": [[1, 2, 3, 4, "t", 10, 0, 0]], "r": []}'
    assert PageLayout.from_json(old).fragments[0].font == ""


class _Unreadable:
    """An OCR engine that reads nothing useful on the strip."""

    def __init__(self, text: str | None = "lorem ipsum dolor", fail: bool = False):
        self.text, self.fail, self.calls = text, fail, 0

    def ocr_lines(self, image_bytes: bytes):
        self.calls += 1
        if self.fail:
            raise RuntimeError("onnxruntime died")
        return [[(0, 30), (100, 30), (100, 50), (0, 50)]], [self.text], 200.0


def _garbled_page(index: int) -> dict:
    import io

    from PIL import Image

    cipher = _cipher(6)
    fragments = [_fragment(_encode(s, cipher), "F", y=40 + 15 * i) for i, s in enumerate(SENTENCES)]
    buffer = io.BytesIO()
    Image.new("RGB", (612, 792), "white").save(buffer, format="JPEG")
    return {"task_index": 0, "page_index": index, "text": PageLayout(612, 792, fragments).to_json(),
            "image": buffer.getvalue(), "route": "rapidocr:garbled"}


@pytest.mark.parametrize("ocr", [_Unreadable(), _Unreadable(fail=True)], ids=["unexplained", "ocr-fails"])
def test_pages_stay_with_ocr_when_recoding_does_not_hold(ocr):
    pages = [_garbled_page(0), _garbled_page(1), {"task_index": 0, "text": "x", "image": b"", "route": "text-layer:prose"}]
    before = [dict(page) for page in pages]
    assert recode_garbled(pages, ocr) is pages
    assert ocr.calls == 1  # one strip for the whole paper, not one call per page
    assert pages == before  # routes, texts and images untouched: the pages are OCR'd whole


def test_an_engine_without_line_reading_is_not_asked():
    pages = [_garbled_page(0)]
    before = [dict(page) for page in pages]
    recode_garbled(pages, object())  # e.g. the vllm engine: whole pages only
    assert pages == before


def test_rapidocr_reads_line_crops_and_still_reads_pages_afterwards():
    """``read_line_images`` runs RapidOCR's recogniser alone; RapidOCR keeps a call's flags, so a
    page read after it must still get detection (a shared engine serves both in one worker)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    from ocr_ray.ocr_engines import RapidOcrEngine

    engine = RapidOcrEngine()
    engine.check_available()
    line = Image.new("RGB", (900, 70), "white")
    ImageDraw.Draw(line).text((10, 10), "Recoding keeps the tables", fill="black", font=ImageFont.load_default(size=40))
    (text,) = engine.read_line_images([line])
    assert "tables" in text.lower()
    page = Image.new("RGB", (1000, 1300), "white")
    page.paste(line, (50, 200))
    buffer = io.BytesIO()
    page.save(buffer, format="JPEG")
    boxes, texts, width = engine.ocr_lines(buffer.getvalue())
    assert boxes and any("tables" in t.lower() for t in texts) and width == 1000
