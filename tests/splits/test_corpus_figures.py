"""The corpus statistics as DuckDB SQL over the rows (stages/rows_stage.py, issue 28.3) give what
the row loop decoding every `reviews_json` gave before (tests/splits/stats_oracle.py), also on the
rows that are easy to get wrong in SQL: a rolling venue whose first paper has no year, decisions
and venues with surrounding whitespace or none, adjacent page separators, reviews without a rating
and trajectories with a missing end."""
from __future__ import annotations

import json

import pyarrow.parquet as pq

from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.row_figures import venue_year_figures
from tests.splits.conftest import write_venue_rows
from tests.splits.stats_oracle import StatsAccumulator

SEP = "\n\n---\n\n"


def _point(rating, t=1) -> dict:
    return {"time": t, "rating": rating, "confidence": None, "edit_id": None}


def _odd_rows(rows_factory) -> list[dict]:
    rows = rows_factory("iclr-2024", 14)
    odd = [  # (conference, year, decision, venue, markdown, ratings and histories of the reviews)
        ("tmlr", None, " Accept with minor revision", "", "a" + SEP + SEP + "b", [(None, [_point(None)])]),
        ("tmlr", 2023, None, "  TMLR  ", "", [(3.0, [_point(2.0), _point(None, 2), _point(3.0, 3)])]),
        ("tmlr", 2024, "Reject", "TMLR", SEP, [(4.0, [_point(4.0)]), (1.0, [])]),
        ("tmlr", 2024, "", "Submitted to TMLR", "x" + SEP + "---" + SEP, [(2.5, [_point(3.5), _point(2.5, 2)])]),
        ("tmlr", 2025, "Desk rejected\n", "tmlr", "\n", [(None, [_point(4.0), _point(None, 2)])]),
        ("iclr", 2024, "\taccept (Oral)", None, "one page", [(10.0, [_point(1.0), _point(10.0, 2)])]),
    ]
    for row, (conference, year, decision, venue, markdown, reviews) in zip(rows, odd, strict=False):
        revs = json.loads(row["reviews_json"])[:len(reviews)]
        for rev, (rating, history) in zip(revs, reviews, strict=True):
            rev.update(rating=rating, score_history=history)
        row.update(conference=conference, year=year, decision=decision, venue=venue, markdown=markdown,
                   markdown_chars=len(markdown), reviews_json=json.dumps(revs), num_reviews=len(revs))
    return rows


def test_sql_figures_are_the_row_loops(tmp_path, local_fs, rows_factory):
    rows = _odd_rows(rows_factory)
    write_venue_rows(local_fs, str(tmp_path), "iclr-2024", rows)
    store = store_from_uri(str(tmp_path))
    got = venue_year_figures(local_fs, [store.path(paths.rows("iclr-2024"))],
                             [store.path(paths.rows_reviews("iclr-2024"))], [store.path(paths.provenance("iclr-2024"))])
    oracle = StatsAccumulator()
    oracle.add(pq.read_table(store.path(paths.rows("iclr-2024"))))
    assert set(got) == set(oracle.venue_years) == {"tmlr", "iclr-2024"}
    for key, vy in oracle.venue_years.items():
        # the licenses come from the provenance and reviews configs, which the row loop never read
        assert got[key].paper_licenses == {"unknown": got[key].papers}
        assert sum(got[key].review_licenses.values()) == got[key].reviews
        assert {**got[key].to_dict(), "text_rules": {}, "paper_licenses": {}, "review_licenses": {}} == vy.to_dict(), key
        assert got[key].text_rules == {"unavailable": vy.papers}  # the fixture's provenance names no rule
    tmlr = got["tmlr"]
    assert tmlr.year is None and tmlr.papers == 5  # named by its first paper, whose year is unknown
    assert tmlr.accepted == 2 and tmlr.moves["tracked"] == 3 and tmlr.moves["down"] == 1
    # the record the rows step wrote is the same
    recorded = json.loads((tmp_path / paths.rows_stats("iclr-2024")).read_text())["venue_years"]
    assert recorded == {k: v.to_dict() for k, v in got.items()}
