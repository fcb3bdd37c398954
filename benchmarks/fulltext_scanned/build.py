"""A scanned development set (issue 36): the real-paper set's DEVELOPMENT part made image-only, as a
scanner makes it, with the same olmOCR-Bench tests.

Source: ``$REVIEWBENCH_REALSET_DIR`` (``benchmarks/bench_fulltext_real``'s set, olmOCR-Bench layout).
Only documents of the dev part are read (``bench_fulltext_real.parts_of``: the manifests' ``part``);
the frozen part's PDFs are never opened. Per document, its first ``SCAN_PAGES`` pages are rendered
by pypdfium2 at a dpi drawn in 150-300, turned grey, rotated by 0.3-1.5 degrees either way, blurred
a little, given sensor noise, JPEG-compressed (quality 55-85) and wrapped back into a PDF of the same
page size holding nothing but that image (Pillow's PDF writer); a scanned blank sheet (grain only)
follows as the last page, which must come out as an empty page, not as an error of the paper. Every draw comes from a generator
seeded by the document's id: the same source gives the same scans.

Tests: the document's present, absent, order, table and baseline tests on those pages, unchanged;
math tests are dropped (a CPU OCR engine writes no LaTeX; they are counted in ``manifest.json``).

    python -m benchmarks.fulltext_scanned.build [OUT]   # OUT: $REVIEWBENCH_SCANSET_DIR or var/scanset
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import random
import sys
from pathlib import Path

SCAN_PAGES = int(os.environ.get("BENCH_FULLTEXT_SCANNED_PAGES", "3"))
KEPT_TYPES = ("present", "absent", "order", "table", "baseline")


def scanset_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_SCANSET_DIR", "var/scanset"))


class _BlankPage:
    """A sheet with nothing printed on it, rendered as a pypdfium2 page renders."""

    def __init__(self, size: tuple[float, float]) -> None:
        self.size = size

    def render(self, scale: float, grayscale: bool = True):
        from PIL import Image

        image = Image.new("L", (round(self.size[0] * scale), round(self.size[1] * scale)), 255)
        return type("Bitmap", (), {"to_pil": lambda _self: image})()


def scan_page(page, rng: random.Random, dpi: int):
    """One PDF page as a scanner returns it at ``dpi``: a grey PIL image."""
    import numpy as np
    from PIL import Image, ImageFilter

    image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    angle = rng.uniform(0.3, 1.5) * rng.choice((-1, 1))
    image = image.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(radius=rng.uniform(0.3, 0.8) * dpi / 200))
    pixels = np.asarray(image, dtype=np.float32)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0.0, rng.uniform(4.0, 10.0), pixels.shape)
    # paper a little darker than white, ink a little lighter than black, as a scanner's levels
    pixels = 12 + pixels * (236 - 12) / 255 + noise
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "L")


def scan_pdf(src: Path, pages: int, seed: str) -> tuple[bytes, int]:
    """The first ``pages`` pages of ``src`` as an image-only PDF; (bytes, pages written)."""
    import pypdfium2 as pdfium

    rng = random.Random(int(hashlib.sha256(seed.encode()).hexdigest()[:16], 16))
    from PIL import Image

    rng_dpi = rng.choice((150, 200, 240, 300))  # one scan setting per document
    doc = pdfium.PdfDocument(str(src))
    try:
        images = []
        for i in range(min(pages, len(doc))):
            image = scan_page(doc[i], rng, rng_dpi)
            # JPEG at the scanner's quality; Pillow's PDF writer stores a JPEG it is given as it is (DCTDecode)
            buf = io.BytesIO()
            image.save(buf, "JPEG", quality=rng.randint(55, 85))
            images.append(Image.open(io.BytesIO(buf.getvalue())))
        # the back of the last sheet, scanned too: a blank page must stay an empty page, not fail the paper
        blank = scan_page(_BlankPage(doc[0].get_size()), rng, rng_dpi)
        buf = io.BytesIO()
        blank.save(buf, "JPEG", quality=rng.randint(55, 85))
        images.append(Image.open(io.BytesIO(buf.getvalue())))
    finally:
        doc.close()
    out = io.BytesIO()
    # a page's size in points is its pixels / dpi * 72: the source page's size
    images[0].save(out, "PDF", resolution=float(rng_dpi), save_all=True, append_images=images[1:])
    return out.getvalue(), len(images) - 1


def build(source: Path, out: Path, pages: int = SCAN_PAGES) -> dict:
    from benchmarks.bench_fulltext_real import load_set, parts_of

    docs = load_set(source)
    dev = set(parts_of(docs)["dev"])
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    manifest = {"source_pages": pages, "documents": {}, "dropped_math_tests": 0}
    for stem, pdf in docs:
        if stem not in dev:
            continue  # the frozen part: never opened
        tests = [json.loads(line) for line in (source / "tests" / f"{stem}.jsonl").read_text().splitlines() if line.strip()]
        data, written = scan_pdf(pdf, pages, stem)
        kept = [t for t in tests if t.get("page", 1) <= written and t["type"] in KEPT_TYPES]
        manifest["dropped_math_tests"] += sum(1 for t in tests if t.get("page", 1) <= written and t["type"] == "math")
        if not kept:
            continue
        (out / "pdfs" / f"{stem}.pdf").write_bytes(data)
        (out / "tests" / f"{stem}.jsonl").write_text("".join(json.dumps(t) + "\n" for t in kept))
        manifest["documents"][stem] = {"pages": written, "tests": len(kept)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


def main(argv: list[str]) -> int:
    from benchmarks.bench_fulltext_real import realset_dir

    source, out = realset_dir(), Path(argv[0]) if argv else scanset_dir()
    if not (source / "tests").is_dir():
        print(f"fulltext_scanned: no real-paper set at {source} (REVIEWBENCH_REALSET_DIR): nothing built; "
              "see docs/fulltext-benchmark.md")
        return 1
    manifest = build(source, out)
    print(json.dumps({k: v for k, v in manifest.items() if k != "documents"}), len(manifest["documents"]), "documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
