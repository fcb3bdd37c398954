"""Shared fixtures: one local Ray for the whole session, and generated PDFs."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas


def displays(markdown: str) -> list[str]:
    """The LaTeX of each ``$$`` display the layout writes."""
    return [block.strip() for block in re.findall(r"\$\$(.+?)\$\$", markdown, re.S)]


_STACK = re.compile(r"^\\begin\{(aligned|gathered)\}(.*)\\end\{\1\}$", re.S)
_TOKEN = re.compile(r"\\begin\{[^}]*\}|\\end\{[^}]*\}|\\\\|\\.|[{}&]")


def display_rows(markdown: str) -> list[str]:
    """``displays``, a block of several rows (``\\begin{aligned}`` or ``{gathered}``, as the layout
    stacks an align's rows) cut into its rows, their alignment marks ``&`` dropped."""
    out = []
    for tex in displays(markdown):
        stack = _STACK.match(tex)
        if not stack:
            out.append(tex)
            continue
        row, depth, last = [], 0, 0
        body = stack.group(2)
        for m in _TOKEN.finditer(body):
            token = m.group()
            if depth == 0 and token in ("\\\\", "&"):
                row.append(body[last:m.start()])
                last = m.end()
                if token == "\\\\":
                    out.append("".join(row).strip())
                    row = []
            depth += 1 if token == "{" or token.startswith("\\begin{") else -1 if token == "}" or token.startswith("\\end{") else 0
        row.append(body[last:])
        out.append("".join(row).strip())
    return out


def typeset_layouts(tmp: Path, packages: str, body: str, preamble: str = "", options: str = "", runs: int = 1) -> list:
    """`body` typeset with pdflatex (article class with `options`, `\\usepackage{<packages>}`, then
    `preamble`; `runs` runs) and read back by the text layer: one `PageLayout` per page (the PDF stays
    as `tmp/m.pdf`). Skips the test where pdflatex is not installed."""
    import pypdfium2

    from ocr_ray.layout.pdftext import page_layout
    from tests.ocr.scanned import typeset_pdf

    doc = pypdfium2.PdfDocument(typeset_pdf(tmp, body, f"\\usepackage{{{packages}}}\n{preamble}", options, runs))
    return [page_layout(doc[i]) for i in range(len(doc))]


def page_sentences(forum_id: str, page_number: int) -> tuple[str, str]:
    """The known sentence of the left and right column of a page."""
    return (
        f"Left column of page {page_number} in paper {forum_id} says alpha.",
        f"Right column of page {page_number} in paper {forum_id} says omega.",
    )


def numbered_pages_pdf(path: Path, pages: int = 3) -> str:
    """A small PDF whose page n reads "page n" (a source for the page-set builders' cutting); its sha256."""
    c = canvas.Canvas(str(path), pagesize=(300, 400))
    for n in range(pages):
        c.drawString(50, 300, f"page {n}")
        c.showPage()
    c.save()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def recorded_and_other_sources(folder: Path) -> str:
    """A page-set source folder as the builders read it: ``numbered_pages_pdf`` under the first 16
    hex digits of its sha256, and other bytes under ``0000000000000000.pdf``; the source's sha256."""
    folder.mkdir(parents=True)
    source = folder.parent / "src.pdf"
    digest = numbered_pages_pdf(source)
    (folder / f"{digest[:16]}.pdf").write_bytes(source.read_bytes())
    (folder / f"{'0' * 16}.pdf").write_bytes(b"%PDF-1.4 other bytes")
    return digest


def write_two_column_pdf(path: Path, forum_id: str, num_pages: int, encrypt: str | None = None) -> Path:
    """A letter-size PDF whose pages carry two columns of known text."""
    pdf = canvas.Canvas(str(path), pagesize=letter, encrypt=encrypt)
    width, height = letter
    for page_number in range(1, num_pages + 1):
        left, right = page_sentences(forum_id, page_number)
        for column_x, sentence in ((72, left), (width / 2 + 18, right)):
            text = pdf.beginText(column_x, height - 72)
            text.setFont("Helvetica", 9)
            # The sentence is one line; filler lines make the column look like prose.
            text.textLine(sentence)
            for filler in range(3):
                text.textLine(f"filler line {filler} of this column")
            pdf.drawText(text)
        pdf.showPage()
    pdf.save()
    return path


# Hand-written: reportlab cannot emit a document without pages.
ZERO_PAGE_PDF = b"""%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj
xref
0 3
0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \ntrailer << /Size 3 /Root 1 0 R >>
startxref
109
%%EOF
"""


@pytest.fixture(scope="session")
def ray_session():
    """Ray starts once (~10 s) for every test in the package; the pipeline sees it
    initialised and must not shut it down."""
    import ray

    started_here = not ray.is_initialized()  # another package's fixture may own Ray
    if started_here:
        ray.init(num_cpus=2, include_dashboard=False)
    yield ray
    if started_here:
        ray.shutdown()


@pytest.fixture(scope="session")
def pdf_corpus(tmp_path_factory) -> dict[str, Path]:
    """Good papers plus one broken file of each kind, keyed by forum id."""
    root = tmp_path_factory.mktemp("pdfs")
    files = {
        "paperA": write_two_column_pdf(root / "paperA.pdf", "paperA", 3),
        "paperB": write_two_column_pdf(root / "paperB.pdf", "paperB", 2),
        "paperC": write_two_column_pdf(root / "paperC.pdf", "paperC", 3),
        "locked": write_two_column_pdf(root / "locked.pdf", "locked", 2, encrypt="secret"),
    }
    good = files["paperA"].read_bytes()
    (root / "truncated.pdf").write_bytes(good[: len(good) // 2])
    (root / "corrupt.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8 + b"\n%%EOF\n")
    (root / "notpdf.pdf").write_bytes(b"<html><body>403 Forbidden</body></html>\n")
    (root / "empty.pdf").write_bytes(ZERO_PAGE_PDF)
    files.update({name: root / f"{name}.pdf" for name in ("truncated", "corrupt", "notpdf", "empty")})
    files["missing"] = root / "missing.pdf"  # never written
    return files
