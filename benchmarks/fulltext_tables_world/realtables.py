"""Real-world tables written by hand (issue 36, tables11rw): ``python -m benchmarks.fulltext_tables_world.realtables
[--manifest FILE] [--out FILE]``.

``realtables_dev.yaml`` names one page of each of 20 documents of the robustness corpus (repository, commit,
path, the file's sha256, the corpus id) with olmOCR-Bench TableTests written by hand. The pages are cut from
``$REVIEWBENCH_ROBUSTNESS_DIR/pdfs/<corpus id>.pdf`` (default ``var/robustness-corpus``) into
``$REVIEWBENCH_REALTABLES_DIR`` (default ``var/realtables``) as ``set/pdfs/<id>.pdf`` beside
``set/tests/<id>.jsonl`` (olmOCR-Bench's layout), then read by the default engine and by pymupdf4llm 2.0 and
scored by olmOCR-Bench's own code (``beside_peer``). A source that is missing or not the recorded bytes is
named and its page left out; without the corpus nothing is measured (CI has none).

``realtables_aside.yaml`` (tables12rw) is a second batch in the same form, held aside: other sources and
producers, truth written before any change, no rule tuned on it. ``--manifest realtables_aside.yaml`` builds
and scores it alone, in ``<set dir>/aside`` so that the two batches' pages and verdicts never mix.
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import yaml

from benchmarks.common import cut_page, has_recorded_bytes

HERE = Path(__file__).parent
MANIFEST = HERE / "realtables_dev.yaml"
ASIDE = HERE / "realtables_aside.yaml"


def pages(manifest: Path = MANIFEST) -> list[dict]:
    return yaml.safe_load(manifest.read_text(encoding="utf-8"))["pages"]


def corpus_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_ROBUSTNESS_DIR", "var/robustness-corpus"))


def set_dir(manifest: Path = MANIFEST) -> Path:
    """The first batch's folder; the held-aside batch (or any other manifest) in a folder of its own under it."""
    root = Path(os.environ.get("REVIEWBENCH_REALTABLES_DIR", "var/realtables"))
    if manifest.resolve() == MANIFEST.resolve():
        return root
    return root / ("aside" if manifest.resolve() == ASIDE.resolve() else manifest.stem)


def test_rows(entry: dict) -> list[dict]:
    """The page's TableTests in olmOCR-Bench's jsonl form (max_diffs 0, as the other sets)."""
    return [{"pdf": f"{entry['id']}.pdf", "page": 1, "id": f"{entry['id']}-table-{n:03d}", "type": "table",
             "max_diffs": 0, **test} for n, test in enumerate(entry["tests"])]


def build(corpus: Path, folder: Path, manifest: Path = MANIFEST) -> dict:
    out = folder / "set"
    (out / "pdfs").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(parents=True, exist_ok=True)
    built, missing = [], []
    for entry in pages(manifest):
        source = corpus / "pdfs" / f"{entry['corpus_id']}.pdf"
        if not has_recorded_bytes(source, entry["sha256"]):
            missing.append(entry["id"])
            continue
        cut_page(source, entry["page"], out / "pdfs" / f"{entry['id']}.pdf")
        (out / "tests" / f"{entry['id']}.jsonl").write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in test_rows(entry)), encoding="utf-8")
        built.append({"id": entry["id"], "part": "check"})
    manifest = {"pages": built, "missing": missing}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


def run(out: Path | None = None, manifest: Path = MANIFEST) -> dict:
    from benchmarks.bench_fulltext_real import load_set
    from benchmarks.bench_fulltext_scanned import ours
    from benchmarks.fulltext_real import beside_peer, olmocr_bench

    if not (corpus_dir() / "pdfs").is_dir():
        print(f"realtables: no corpus at {corpus_dir()} (REVIEWBENCH_ROBUSTNESS_DIR): nothing measured")
        return {}
    folder = set_dir(manifest)
    built = build(corpus_dir(), folder, manifest)
    root = folder / "set"
    docs = load_set(root)
    last = out or folder / "last-run.json"
    runs, verdicts, skipped = beside_peer.measure(root, docs, "text-layer", ours, "2.0", last)
    summary = {"manifest": manifest.name, "missing": built["missing"], "skipped": skipped}
    for name, v in verdicts.items():
        tables = [t for t in v["tests"] if t["type"] == "table"]
        rates = olmocr_bench.rates(tables, ("table",))
        summary[name] = {"passed": rates["passed"], "tests": rates["tests"], "by_paper": rates["by_paper"]}
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=MANIFEST,
                        help="the pages and tests (default realtables_dev.yaml; realtables_aside.yaml: the held-aside batch)")
    parser.add_argument("--out", type=Path, help="where to write every page and verdict (default: in the set dir)")
    args = parser.parse_args()
    manifest = args.manifest if args.manifest.exists() else HERE / args.manifest
    print(json.dumps(run(args.out, manifest.resolve()), indent=1))
