"""Routing (``quality.classify_text``): a page of names, addresses, part numbers or codes, with no
running text, is a text layer to read, not a garbled one to OCR. An Excel list of German firms (the
hand-truth set's Excel-for-Mac page: "SUS GmbH" 12 times, "Ackermann XXXXXXXXXXXXXXXXXX GmbH" 5
times) went to OCR: its letters were counted word by word, so a repeated name or placeholder weighed as
much as the rest of the page, a list has no function word, and accented letters (Polish, Turkish,
Vietnamese) were no letters. Each list here is laid out by reportlab (DejaVu Sans) as a table of a
register, truth written by hand (the list itself), judged with olmOCR-Bench's classes; the same
lists' letters shifted or permuted as a broken font's ToUnicode map would give them stay garbled."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from benchmarks.fulltext_real.olmocr_judge import judge
from ocr_ray.layout.quality import classify_text

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

_DE_FIRMS = ["SUS GmbH", "SUS GmbH", "Forster, Mark", "SUS GmbH", "Karls GmbH", "Ackermann XXXXXXXXXXXX GmbH",
             "SUS GmbH", "Ackermann XXXXXXXXXXXX GmbH", "Karls GmbH", "Jochen Mann GmbH", "SUS GmbH",
             "Ackermann XXXXXXXXXXXX GmbH", "Karls GmbH", "SUS GmbH", "Klinik Ziegelblitz", "SUS GmbH",
             "Ingh. Steinbüro", "SUS GmbH", "Karls GmbH", "Justus und Söhne", "SUS GmbH", "Horn, Ein"]
_PL_NAMES = [("Szczepański Grzegorz", "Wrocław"), ("Wojciechowski Krzysztof", "Bydgoszcz"),
             ("Przybylski Zbigniew", "Szczecin"), ("Kowalczyk Małgorzata", "Łódź"), ("Zieliński Wojciech", "Kraków"),
             ("Woźniak Agnieszka", "Gdańsk"), ("Chrzanowski Przemysław", "Częstochowa"), ("Krawczyk Jędrzej", "Rzeszów"),
             ("Grabowski Mieczysław", "Białystok"), ("Szymczak Bożena", "Olsztyn"), ("Dąbrowski Szymon", "Zgierz"),
             ("Pawłowski Stanisław", "Przemyśl")]
_TR_NAMES = [("Yılmaz Mehmet", "İstanbul"), ("Kaya Ayşe", "Ankara"), ("Demir Mustafa", "İzmir"), ("Şahin Fatma", "Bursa"),
             ("Çelik Hüseyin", "Antalya"), ("Yıldız Zeynep", "Konya"), ("Yıldırım Emine", "Gaziantep"),
             ("Öztürk İbrahim", "Kayseri"), ("Aydın Hatice", "Eskişehir"), ("Özdemir Murat", "Diyarbakır")]
_VI_NAMES = [("Nguyễn Văn Hùng", "Hà Nội"), ("Trần Thị Mai", "Hồ Chí Minh"), ("Lê Văn Thắng", "Đà Nẵng"),
             ("Phạm Thị Hương", "Hải Phòng"), ("Hoàng Văn Dũng", "Cần Thơ"), ("Huỳnh Thị Ngọc", "Nha Trang"),
             ("Phan Văn Khánh", "Huế"), ("Vũ Thị Thủy", "Vinh"), ("Đặng Quốc Bảo", "Quy Nhơn"), ("Bùi Thị Lan", "Buôn Ma Thuột")]
_FR_FIRMS = [("Dupont Jean SARL", "12 rue de la Paix", "75002 Paris"), ("Lefèvre Marie SA", "4 avenue Victor Hugo", "69002 Lyon"),
             ("Moreau Pierre SARL", "7 boulevard Haussmann", "75009 Paris"), ("Girard Sophie SAS", "3 place Bellecour", "69002 Lyon"),
             ("Rousseau Luc SARL", "21 quai des Chartrons", "33000 Bordeaux"), ("Fournier Claire SA", "9 rue Nationale", "59000 Lille")]
_ES_PARTS = [("TH-M8x40", "Tornillo hexagonal M8x40 DIN 933"), ("TU-M8", "Tuerca hexagonal M8 DIN 934"),
             ("AR-M8", "Arandela plana M8 DIN 125"), ("TH-M10x50", "Tornillo hexagonal M10x50 DIN 933"),
             ("TU-M10", "Tuerca hexagonal M10 DIN 934"), ("AR-M10", "Arandela plana M10 DIN 125")]

# name -> (head, rows): each a register as an office program prints it, names repeated as in one
LISTS = {
    "de": (["Name", "Vers.-Nummer", "RG Nr.", "Fällig von"],
           [[firm, f"{11 + i} {(i % 2 + 1) * 111111111}", f"55.55.{5555 + i}", "01.01.2025"] for i, firm in enumerate(_DE_FIRMS)]),
    "pl": (["Nazwisko i imię", "Miejscowość", "Spółka", "NIP"],
           [[name, city, "sp. z o.o.", f"{525 + i}-{24 + i}-{61 + i}-{17 + i}"] for i, (name, city) in enumerate(_PL_NAMES * 2)]),
    "tr": (["Adı Soyadı", "Şehir", "Unvan", "Vergi No"],
           [[name, city, "Ltd. Şti.", f"{4820031 + 7 * i}"] for i, (name, city) in enumerate(_TR_NAMES * 3)]),
    "vi": (["Họ và tên", "Tỉnh/Thành phố", "Đơn vị", "Mã số"],
           [[name, city, "Công ty TNHH", f"0{301234 + i}"] for i, (name, city) in enumerate(_VI_NAMES * 3)]),
    "fr": (["Société", "Adresse", "Ville", "SIRET"],
           [[firm, street, town, f"{40212 + i} 0001{i:01d}"] for i, (firm, street, town) in enumerate(_FR_FIRMS * 4)]),
    "es": (["Referencia", "Descripción", "Cantidad", "Almacén"],
           [[code, text, str(100 * (i + 1)), "Zaragoza"] for i, (code, text) in enumerate(_ES_PARTS * 4)]),
}
# names of each list, copied from it, whose letters OCR would have to get right (olmocr's present)
PRESENT = {
    "de": ["Ingh. Steinbüro", "Justus und Söhne", "Ackermann XXXXXXXXXXXX GmbH"],
    "pl": ["Chrzanowski Przemysław", "Częstochowa", "Łódź", "Woźniak Agnieszka"],
    "tr": ["Öztürk İbrahim", "Eskişehir", "Yıldırım Emine", "Ltd. Şti."],
    "vi": ["Đặng Quốc Bảo", "Quy Nhơn", "Trần Thị Mai", "Công ty TNHH"],
    "fr": ["Rousseau Luc SARL", "21 quai des Chartrons", "Lefèvre Marie SA"],
    "es": ["Tuerca hexagonal M10 DIN 934", "TH-M8x40", "Descripción"],
}


def _register(path: Path, head: list[str], rows: list[list[str]]) -> str:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

    pdfmetrics.registerFont(TTFont("DejaVu", str(DEJAVU)))
    table = Table([head, *rows], hAlign="LEFT")
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "DejaVu", 8.5), ("LEFTPADDING", (0, 0), (-1, -1), 3)]))
    SimpleDocTemplate(str(path), pagesize=A4, topMargin=40, bottomMargin=40).build([table])
    return str(path)


@pytest.fixture(scope="module")
def registers(tmp_path_factory) -> dict[str, dict]:
    from ocr_ray.conversion import convert_pdf
    from ocr_ray.engines import get_engine

    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed")
    folder = tmp_path_factory.mktemp("registers")
    out = {}
    for name, (head, rows) in LISTS.items():
        pdf = _register(folder / f"{name}.pdf", head, rows)
        out[name] = convert_pdf({"task_index": 0, "forum_id": name, "pdf_path": pdf},
                                filesystem=pafs.LocalFileSystem(), engine=get_engine("text-layer"))
    return out


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_register_of_names_or_codes_is_read_from_its_text_layer(registers, name):
    row = registers[name]
    assert not row["error"], row["error"]
    routes = json.loads(row["engine_pages"])
    assert all(route.startswith("text-layer") for route in routes), routes
    head, rows = LISTS[name]
    tests = [{"id": f"present{i}", "type": "present", "text": text} for i, text in enumerate(PRESENT[name])]
    tests += [{"id": "head", "type": "present", "text": head[0]}, {"id": "last", "type": "present", "text": rows[-1][0]}]
    verdicts = judge(row["markdown"], tests)
    assert all(verdicts.values()), (verdicts, row["markdown"][:1500])


def _plain(name: str) -> str:
    head, rows = LISTS[name]
    return "\n".join(" ".join(cells) for cells in [head, *rows])


def _shifted(text: str, by: int) -> str:
    """Each ASCII letter ``by`` letters on in its alphabet, as the fault suite's pdfTeX map does."""
    out = []
    for c in text:
        for alphabet in (string.ascii_lowercase, string.ascii_uppercase):
            if c in alphabet:
                c = alphabet[(alphabet.index(c) + by) % 26]
                break
        out.append(c)
    return "".join(out)


def _code_shifted(text: str, by: int) -> str:
    """Each letter, accented ones too, ``by`` code points on: a font's codes mapped with an offset."""
    return "".join(chr(ord(c) + by) if c.isalpha() else c for c in text)


def _permuted(text: str, seed: int) -> str:
    letters = list(string.ascii_lowercase)
    random.Random(seed).shuffle(letters)
    table = str.maketrans(string.ascii_lowercase + string.ascii_uppercase,
                          "".join(letters) + "".join(letters).upper())
    return text.translate(table)


@pytest.mark.parametrize("name", sorted(LISTS))
def test_the_same_registers_through_a_broken_font_map_stay_garbled(name):
    """What a list may not hide: its letters shifted (pdfTeX's ``\\pdfglyphtounicode`` map of the
    fault suite, one letter back; other shifts, of letters or of code points) or permuted read as no
    language."""
    text = _plain(name)
    assert classify_text(text) == "prose"
    for broken in (_shifted(text, -1), _shifted(text, 3), _code_shifted(text, -1), _code_shifted(text, 1),
                   _permuted(text, 0), _permuted(text, 3)):
        assert classify_text(broken) == "garbled", broken[:200]
