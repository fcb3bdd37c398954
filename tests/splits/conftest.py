"""Synthetic ReviewBench rows for the split/card tests (no network, no Dagster)."""
from __future__ import annotations

import json
import os
import random

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest

from reviewbench_assets.domain.reviews import empty_review
from reviewbench_assets.domain.schema import PAGE_SEPARATOR, REVIEWBENCH_SCHEMA

WORDS = (
    "model training data transformer attention loss benchmark review evaluation "
    "language robot policy gradient theorem proof baseline ablation dataset"
).split()

# venue-year -> (conference, year, track, venue_id, decision pool)
VENUE_YEARS = {
    "iclr-2023": ("iclr", 2023, "main", "ICLR.cc/2023/Conference"),
    "iclr-2024": ("iclr", 2024, "main", "ICLR.cc/2024/Conference"),
    "neurips-2023": ("neurips", 2023, "main", "NeurIPS.cc/2023/Conference"),
    "neurips-2023-datasets_and_benchmarks": (
        "neurips", 2023, "datasets_and_benchmarks", "NeurIPS.cc/2023/Track/Datasets_and_Benchmarks"
    ),
    "emnlp-2023": ("emnlp", 2023, "main", "EMNLP/2023/Conference"),
    "emnlp-2023-findings": ("emnlp", 2023, "findings", "EMNLP/2023/Conference"),
}


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def make_rows(venue_year: str, n: int, seed: int = 0) -> list[dict]:
    """``n`` realistic rows: a few KB of markdown with page separators, union-field reviews."""
    conference, year, track, venue_id = VENUE_YEARS[venue_year]
    rng = random.Random(f"{venue_year}-{seed}")
    rows = []
    for i in range(n):
        pages = [f"# Page {p + 1}\n\n" + _text(rng, 150) for p in range(rng.randint(2, 5))]
        markdown = "" if i % 7 == 6 else PAGE_SEPARATOR.join(pages)  # some PDFs unavailable
        reviews = []
        for r in range(rng.randint(2, 4)):
            rev = empty_review()
            rev.update(
                review_id=f"{venue_year}-{seed}-{i}-r{r}",
                reviewer=f"Reviewer_{r}",
                summary=_text(rng, 40),
                strengths=_text(rng, 30),
                weaknesses=_text(rng, 30),
                rating=rng.choice([1.0, 3.0, 5.0, 6.0, 8.0, 10.0]),  # the parser's scores are numbers
                confidence=float(rng.randint(1, 5)),
            )
            # a trajectory for some reviews (up, down, flat, unknown), as the parser gives them
            first = rng.choice([rev["rating"], rev["rating"] - 1.0, rev["rating"] + 2.0, None])
            rev["score_history"] = ([] if r == 3 else
                                    [{"time": 1000 * i, "rating": first, "confidence": rev["confidence"], "edit_id": "e0"}]
                                    + ([{"time": 1000 * i + 1, "rating": rev["rating"], "confidence": None,
                                         "edit_id": "e1"}] if first != rev["rating"] else []))
            reviews.append(rev)
        accepted = i % 3 == 0
        rows.append(
            {
                "forum_id": f"{venue_year}-{seed}-{i:04d}",
                "conference": conference,
                "year": year,
                "track": track,
                "venue_id": venue_id,
                "paper_number": None if i % 5 == 4 else i + 1,
                "title": _text(rng, 8).title(),
                "abstract": _text(rng, 120),
                "authors": [f"Author {rng.randint(1, 999)}" for _ in range(rng.randint(1, 5))],
                "keywords": [rng.choice(WORDS) for _ in range(rng.randint(0, 4))],
                "tldr": _text(rng, 15),
                "primary_area": rng.choice(["", "deep learning", "robotics"]),
                "venue": f"{conference.upper()} {year} poster" if accepted
                else f"Submitted to {conference.upper()} {year}",
                "decision": "Accept (poster)" if accepted else "Reject",
                "decision_comment": _text(rng, 50),
                "author_rebuttal": "",
                "num_reviews": len(reviews),
                "reviews_json": json.dumps(reviews),
                "markdown": markdown,
                "markdown_chars": len(markdown),
            }
        )
    return rows


def write_input(fs: pafs.FileSystem, path: str, rows: list[dict], row_group_size: int = 7) -> str:
    table = pa.Table.from_pylist(rows, schema=REVIEWBENCH_SCHEMA)
    parent = path.rsplit("/", 1)[0] if "/" in path else ""
    if parent:
        fs.create_dir(parent, recursive=True)
    pq.write_table(table, path, filesystem=fs, row_group_size=row_group_size)
    return path


@pytest.fixture
def local_fs() -> pafs.LocalFileSystem:
    return pafs.LocalFileSystem()


@pytest.fixture
def rows_factory():
    return make_rows


@pytest.fixture
def input_writer():
    return write_input


def as_papers(rows: list[dict]) -> list[dict]:
    """Rows as the rows step's writer takes them: the reviews typed (as the parsed table holds them)
    where the card's rows have `reviews_json`, which the writer makes from them."""
    from reviewbench_assets.domain.reviews import typed_reviews

    return [{**{k: v for k, v in r.items() if k != "reviews_json"}, "reviews": typed_reviews(json.loads(r["reviews_json"]))}
            for r in rows]


def write_venue_rows(fs: pafs.FileSystem, root: str, pk: str, rows: list[dict], row_group_size: int = 7) -> str:
    """A venue-year's rows written by the rows step's own writer (stages/rows_stage.py: the papers,
    one row per review, the provenance and the statistics, under `root`), with the passing verdict
    that step records for them: what the split assembly reads as one set. The rows' reviews go in
    typed, as the parsed table holds them (`row_group_size` is the old fixture's; the writer's own
    row groups are used)."""
    from resources.store import Store
    from reviewbench_assets.io.layout import paths
    from reviewbench_assets.io.verdicts import write_verdict
    from reviewbench_assets.stages.rows_stage import RowsStage, write_rows

    store = Store(fs, root)
    pairs = [(paper, {"forum_id": r["forum_id"], "conference": r["conference"], "year": r["year"], "track": r["track"],
                      "venue_id": r["venue_id"], "status": "active"}) for paper, r in zip(as_papers(rows), rows, strict=True)]
    for rel in (paths.rows(pk), paths.provenance(pk)):
        fs.create_dir(f"{root}/{rel}".rsplit("/", 1)[0], recursive=True)
    write_rows(RowsStage.outputs_in(store, pk), iter(pairs))
    # the rows stage records its checks' verdict for the rows it wrote (io/verdicts.py)
    write_verdict(store, pk, "reviewbench_split", {}, overridden=False)
    return store.path(paths.rows(pk))
