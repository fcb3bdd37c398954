"""The conference split stage handed a venue-year's inputs in memory (issue 39 item 1: "stage tests
can hand in inputs in memory"): the rows, one row per review and the provenance as tables
(io/memory_inputs.py SplitInputsInMemory, what `Upstream.split_inputs` hands from the files),
nothing of the rows stage written first. The truth is the rows the test made: each paper once in
the default config, each review once in the `reviews` config."""
from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from resources.store import store_from_uri
from reviewbench_assets.domain.reviews import review_rows, typed_reviews
from reviewbench_assets.domain.schema import PROVENANCE_SCHEMA, REVIEWBENCH_SCHEMA, REVIEWS_CONFIG_SCHEMA
from reviewbench_assets.io.memory_inputs import PerPartition, SplitInputsInMemory
from reviewbench_assets.stages.figures import ROW_COUNT
from reviewbench_assets.stages.split_stage import SplitStage
from tests.splits.conftest import make_rows

PK = "iclr-2024"


def _inputs(rows: list[dict]) -> SplitInputsInMemory:
    reviews = [r for row in rows for r in review_rows(row, typed_reviews(json.loads(row["reviews_json"])))]
    provenance = [{k: row[k] for k in ("forum_id", "conference", "year", "track", "venue_id")} | {"status": "active"}
                  for row in rows]
    return SplitInputsInMemory({"rows": pa.Table.from_pylist(rows, schema=REVIEWBENCH_SCHEMA),
                                "reviews": pa.Table.from_pylist(reviews, schema=REVIEWS_CONFIG_SCHEMA),
                                "provenance": pa.Table.from_pylist(provenance, schema=PROVENANCE_SCHEMA)},
                               {"venue_years": {}})


def test_the_split_stage_writes_a_venue_years_part_from_inputs_in_memory(tmp_path):
    rows = make_rows(PK, 12, seed=3)
    store = store_from_uri(str(tmp_path))
    given = {"has_rows": PerPartition({PK: True}, default=False),  # the other ICLR years have no rows
             "split_inputs": PerPartition({PK: _inputs(rows)}),
             "resubmission_chains": None}  # the resubmissions stage has not run
    result = SplitStage("iclr")(store, inputs=given)

    assert result.figures["venue_years"] == [PK] and result.figures["rewritten_venue_years"] == [PK]
    assert result.figures[ROW_COUNT] == 12
    corpus = tmp_path / "corpus"
    published = [fid for p in sorted((corpus / "data").glob("iclr-*.parquet"))
                 for fid in pq.read_table(p, columns=["forum_id"]).column(0).to_pylist()]
    assert published == [r["forum_id"] for r in rows]  # every paper once, in the rows' order
    review_ids = [i for p in sorted((corpus / "reviews").glob("iclr-*.parquet"))
                  for i in pq.read_table(p, columns=["review_id"]).column(0).to_pylist()]
    assert sorted(review_ids) == sorted(r["review_id"] for row in rows for r in json.loads(row["reviews_json"]))
    assert "iclr" in (corpus / "README.md").read_text()  # the manifest lists the split
    assert not (tmp_path / "rows").exists()  # nothing of the rows stage was written

    # handed the same inputs again, the part is up to date: nothing is rewritten
    again = SplitStage("iclr")(store, inputs=given)
    assert again.figures["unchanged_venue_years"] == [PK] and again.figures["rewritten_venue_years"] == []
