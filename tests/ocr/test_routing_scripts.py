"""Routing (``quality.classify_text``): a text layer in another script than Latin is read, not OCR'd
as garbled. The language check measured only Latin letters, so a page of Russian, Greek, Arabic,
Hebrew, Chinese, Japanese, Korean or Hindi had none to measure and went to OCR (rapidocr's model reads
Chinese and English only): 58 pages of the robustness corpus (declarations of human rights in
Urdu, Arabic, Thai, Persian, Armenian, Russian, Greek; Chinese company reports, Japanese statements,
a Hebrew novel). Now a page whose words are of one script, each word of one script alone, is read;
a broken map's letters (any script, look-alikes mixed into words, rare Han characters, an alphabet
shifted into the Hangul block) stay garbled. The texts are written here by hand; two are laid out by
reportlab (DejaVu Sans) and converted, judged with olmOCR-Bench's classes."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout.quality import classify_text

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

PAGES = {
    "ru": "Москва является столицей России и крупнейшим городом страны. В городе живут более двенадцати "
          "миллионов человек; он служит политическим, экономическим и культурным центром. Первое упоминание "
          "о Москве в летописи относится к тысяча сто сорок седьмому году.",
    "el": "Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας. Έχει μακρά ιστορία και είναι μία "
          "από τις αρχαιότερες πόλεις του κόσμου, με κατοίκους εδώ και τρεις χιλιάδες χρόνια τουλάχιστον.",
    "ar": "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، وتعد من أكبر المدن في أفريقيا والشرق الأوسط. "
          "يمر نهر النيل في وسط المدينة، وفيها كثير من المساجد والمتاحف والجامعات القديمة والحديثة.",
    "he": "ירושלים היא בירת מדינת ישראל והעיר הגדולה ביותר בה. יש בה אתרים קדושים ליהדות, לנצרות ולאסלאם, "
          "והעיר העתיקה שלה מוקפת חומה שנבנתה לפני כחמש מאות שנה.",
    "zh": "北京是中华人民共和国的首都，是全国的政治中心和文化中心。北京历史悠久，文化灿烂，是首批国家历史文化名城。"
          "这里有故宫、天坛和长城等名胜古迹，每年都有很多人来这里参观学习。",
    "ja": "東京は日本の首都であり、世界有数の大都市である。人口は約千四百万人で、政治、経済、文化の中心地となっている。"
          "江戸時代には将軍の城下町として栄え、明治時代に東京と名前が変わった。",
    "ko": "서울은 대한민국의 수도이자 최대 도시이며, 정치와 경제와 문화의 중심지이다. 한강이 도시를 가로질러 흐르고, "
          "오래된 궁궐과 새로운 건물이 함께 있어서 많은 사람들이 찾아온다.",
    "hi": "दिल्ली भारत की राजधानी है और यह देश का एक प्रमुख राजनीतिक और सांस्कृतिक केंद्र है। यहाँ कई पुराने "
          "किले, मंदिर और बाज़ार हैं, और हर साल बहुत से लोग इन्हें देखने आते हैं।",
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_text_layer_in_another_script_is_read(name):
    assert classify_text(PAGES[name]) == "prose"


def _lookalikes(text: str) -> str:
    """Cyrillic letters drawn as their Latin look-alikes by a font's map, inside the same words."""
    return text.translate(str.maketrans("оаерсхОАЕРСХ", "oaepcxOAEPCX"))


def _any_script(seed: int) -> str:
    """Letters of any script, as a map that lost its table gives them."""
    rnd = random.Random(seed)
    blocks = [(0x410, 0x44F), (0x391, 0x3C9), (0x5D0, 0x5EA), (0x627, 0x64A), (0x61, 0x7A)]
    return " ".join("".join(chr(rnd.randint(*rnd.choice(blocks))) for _ in range(rnd.randint(3, 9)))
                    for _ in range(80))


def _into_hangul(text: str) -> str:
    """Russian letters shifted into the Hangul block by a fixed offset (the corpus' page: "킜킰톁톁킰")."""
    return "".join(chr(ord(c) - 0x410 + 0xD0A0) if "\u0410" <= c <= "\u044f" else c for c in text)


def _rare_han(text: str, by: int) -> str:
    """Chinese characters moved ``by`` code points: glyphs of the page under other, mostly rare, characters."""
    return "".join(chr(ord(c) + by) if "\u4e00" <= c <= "\u9fff" else c for c in text)


@pytest.mark.parametrize("broken", [
    _lookalikes(PAGES["ru"]), _any_script(0), _any_script(1), _into_hangul(PAGES["ru"] * 2),
    _rare_han(PAGES["zh"], 7), _rare_han(PAGES["zh"], 301)], ids=["lookalikes", "scripts0", "scripts1",
                                                                  "into-hangul", "han+7", "han+301"])
def test_a_broken_map_in_another_script_stays_garbled(broken):
    assert classify_text(broken) == "garbled"


def _page(path: Path, text: str) -> str:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    pdfmetrics.registerFont(TTFont("DejaVu", str(DEJAVU)))
    style = ParagraphStyle("body", fontName="DejaVu", fontSize=11, leading=14)
    SimpleDocTemplate(str(path), pagesize=A4).build([Paragraph(text, style) for _ in range(3)])
    return str(path)


@pytest.mark.parametrize("name", ["ru", "el"])
def test_a_page_in_cyrillic_or_greek_is_converted_from_its_text_layer(tmp_path, name):
    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed")
    pdf = _page(tmp_path / f"{name}.pdf", PAGES[name])
    row = convert_pdf({"task_index": 0, "forum_id": name, "pdf_path": pdf},
                      filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    assert not row["error"], row["error"]
    routes = json.loads(row["engine_pages"])
    assert all(route.startswith("text-layer") for route in routes), routes
    sentences = [s.strip() + "." for s in PAGES[name].split(".") if len(s.strip()) > 20]
    verdicts = judge(row["markdown"], [{"id": f"s{i}", "type": "present", "text": s} for i, s in enumerate(sentences)])
    assert all(verdicts.values()), (verdicts, row["markdown"][:800])
