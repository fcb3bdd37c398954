"""The one-page furniture set (``pages.yaml``) built from a local copy of the robustness corpus.

``build(corpus, out)`` writes ``out/pdfs/<id>.pdf`` (the one page taken out of the corpus file with
pikepdf, nothing else changed), ``out/tests/<id>.jsonl`` (olmOCR-Bench's format: ``absent`` and
``present`` tests on page 1) and ``out/manifest.json`` (which id is in which part). A corpus file whose
sha256 is not the recorded one is refused (the tests were written for those bytes).

    python -m benchmarks.fulltext_furniture.build [OUT]   # corpus from $REVIEWBENCH_ROBUSTNESS_DIR
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).parent
PAGES = HERE / "pages.yaml"
DEFAULT_DIR = Path("var/furnitureset")


def set_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_FURNITURESET_DIR", str(DEFAULT_DIR)))


def pages() -> list[dict]:
    return yaml.safe_load(PAGES.read_text())["pages"]


def tests(page: dict) -> list[dict]:
    """The page's tests as olmOCR-Bench's JSONL rows (page 1 of ``<id>.pdf``)."""
    rows = []
    for kind in ("absent", "present"):
        for item in page.get(kind) or []:
            item = {"text": item} if isinstance(item, str) else dict(item)
            rows.append({"pdf": f"{page['id']}.pdf", "page": 1, "id": f"{page['id']}-{kind}-{len(rows):02d}",
                         "type": kind, **item})
    return rows


def build(corpus: Path, out: Path) -> dict:
    import pikepdf

    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    manifest = {line["id"]: line for line in map(json.loads, (corpus / "manifest.jsonl").read_text().splitlines())}
    parts: dict[str, list[str]] = {"dev": [], "frozen": []}
    for page in pages():
        source = page["source"]
        pdf = corpus / manifest[source["corpus_id"]]["file"]
        if hashlib.sha256(pdf.read_bytes()).hexdigest() != source["sha256"]:
            raise ValueError(f"{page['id']}: {pdf} is not the file the tests were written for (sha256)")
        with pikepdf.open(pdf) as whole:
            one = pikepdf.new()
            one.pages.append(whole.pages[source["page"] - 1])
            one.save(out / "pdfs" / f"{page['id']}.pdf")
        rows = tests(page)
        (out / "tests" / f"{page['id']}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        parts[page["part"]].append(page["id"])
    built = {"parts": parts, "pages_yaml_sha256": hashlib.sha256(PAGES.read_bytes()).hexdigest()}
    (out / "manifest.json").write_text(json.dumps(built, indent=1))
    return built


if __name__ == "__main__":
    from benchmarks.robustness.collect import corpus_dir

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else set_dir()
    done = build(corpus_dir(), target)
    print(f"{target}: {sum(len(v) for v in done['parts'].values())} pages "
          f"({len(done['parts']['dev'])} dev, {len(done['parts']['frozen'])} frozen)")
