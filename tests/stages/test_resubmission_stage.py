"""The resubmissions stage over parsed forums written by hand (tests/stages/resubmission_inputs.py):
which forums are versions of one paper is stated there, not derived from the rule. Links, chains and
the forums left alone are written as one set; a venue-year that changes recomputes only the links it
touches and gives what a run from scratch gives; bad input is linked or left alone with a reason, and
counted, never a crash."""
from __future__ import annotations

import pyarrow.parquet as pq

from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from tests.stages.figures_check import assert_every_figure
from tests.stages.resubmission_inputs import BARE, GARBLED, GRAPH, RL, V1, V2, V3, forum, write_parsed

KEYS = ["iclr-2024", "neurips-2024", "iclr-2025", "tmlr"]


def _links(root) -> set[tuple[str, str, str]]:
    return {(r["earlier"], r["later"], r["kind"]) for r in pq.read_table(root / paths.RESUBMISSION_LINKS).to_pylist()}


def test_versions_across_venue_years_become_one_chain_with_evidence_and_decisions(tmp_path):
    store = store_from_uri(str(tmp_path))
    write_parsed(store, "iclr-2024", [V1, GRAPH, BARE], texts={"iclr24_a": "", "iclr24_g": ""})
    write_parsed(store, "neurips-2024", [V2, RL, GARBLED])
    result = ResubmissionsStage(KEYS)(store)
    assert_every_figure(result)
    assert _links(tmp_path) == {("iclr24_a", "nips24_b", "resubmission")}
    (chain,) = pq.read_table(tmp_path / paths.RESUBMISSION_CHAINS).to_pylist()
    assert chain["chain_id"] == "iclr24_a" and chain["num_versions"] == 2
    assert [(s["forum_id"], s["venue_year"], s["decision"], s["accepted"]) for s in chain["steps"]] == [
        ("iclr24_a", "iclr-2024", "Reject", False), ("nips24_b", "neurips-2024", "Accept (poster)", True)]
    (link,) = chain["links"]
    assert link["evidence"] and 0 < link["confidence"] <= 1 and link["abstract_score"] > 0.3
    assert link["authors_score"] == 1.0  # both of the first version's authors sign the second
    # a one-word title without abstract is left alone with its reason; the note that is no JSON
    # still gives a record (its title), the withdrawn paper's step says so
    left = pq.read_table(tmp_path / paths.RESUBMISSION_LEFT_ALONE).to_pylist()
    assert left == [{"forum_id": "iclr24_bare", "venue_year": "iclr-2024", "reason": "too_little_text"}]
    f = result.figures
    assert f["submissions"] == 6 and f["chains"] == 1 and f["links_by_kind"] == {"resubmission": 1}
    assert f["left_alone"] == {"too_little_text": 1} and f["linking_mode"] == "full"
    # two PDFs read without text (iclr-2024's markdown), two forums without abstract nor authors, one short title
    assert f["input_issues"] == {"no_abstract": 2, "no_public_authors": 2, "pdf_without_text": 2, "short_title": 1}
    assert f["venue_years_relinked"] == ["iclr-2024", "neurips-2024"]


def test_a_changed_venue_year_recomputes_only_its_links_and_agrees_with_a_run_from_scratch(tmp_path):
    store = store_from_uri(str(tmp_path))
    write_parsed(store, "iclr-2024", [V1, GRAPH])
    write_parsed(store, "neurips-2024", [V2, RL])
    ResubmissionsStage(KEYS)(store)
    kept = (tmp_path / paths.resubmission_records("iclr-2024")).stat().st_mtime_ns
    again = ResubmissionsStage(KEYS)(store)
    assert again.figures["linking_mode"] == "unchanged"
    # a later venue-year arrives with a third version
    write_parsed(store, "iclr-2025", [V3])
    result = ResubmissionsStage(KEYS)(store)
    assert result.figures["linking_mode"] == "incremental"
    assert result.figures["venue_years_relinked"] == ["iclr-2025"]
    assert (tmp_path / paths.resubmission_records("iclr-2024")).stat().st_mtime_ns == kept  # not read again
    incremental = _links(tmp_path)
    assert {(e, l) for e, l, _ in incremental} == {("iclr24_a", "nips24_b"), ("nips24_b", "iclr25_c"),
                                                   ("iclr24_a", "iclr25_c")}
    (chain,) = pq.read_table(tmp_path / paths.RESUBMISSION_CHAINS).to_pylist()
    assert [s["forum_id"] for s in chain["steps"]] == ["iclr24_a", "nips24_b", "iclr25_c"]
    scratch = tmp_path / "scratch"
    other = store_from_uri(str(scratch))
    write_parsed(other, "iclr-2024", [V1, GRAPH])
    write_parsed(other, "neurips-2024", [V2, RL])
    write_parsed(other, "iclr-2025", [V3])
    ResubmissionsStage(KEYS)(other)
    assert _links(scratch) == incremental
    # a venue-year whose forums changed: the links it touched are scored again, the others kept
    retitled = forum("nips24_b", "Something Else Entirely About Protein Folding", RL["abstract"] + " More.",
                     ["Omar Haddad"], "Reject", 1_715_000_000_000)
    write_parsed(store, "neurips-2024", [retitled, RL])
    result = ResubmissionsStage(KEYS)(store)
    assert result.figures["venue_years_relinked"] == ["neurips-2024"]
    assert {(e, l) for e, l, _ in _links(tmp_path)} >= {("iclr24_a", "iclr25_c")}
    assert not {("iclr24_a", "nips24_b"), ("nips24_b", "iclr25_c")} & {(e, l) for e, l, _ in _links(tmp_path)}
    # a venue-year gone takes its links with it
    (tmp_path / paths.parsed("iclr-2025")).unlink()
    result = ResubmissionsStage(KEYS)(store)
    assert result.figures["venue_years_removed"] == ["iclr-2025"]
    assert not any("iclr25_c" in (e, l) for e, l, _ in _links(tmp_path))


def test_tmlr_states_the_earlier_submission_and_the_link_needs_no_text(tmp_path):
    store = store_from_uri(str(tmp_path))
    first = forum("tmlr_a", "Short", "", [], "Reject", 1_650_000_000_000)
    second = forum("tmlr_b", "Other", "", [], "Accept as is", 1_660_000_000_000,
                   content={"previous_TMLR_submission_url": "https://openreview.net/forum?id=tmlr_a"})
    write_parsed(store, "tmlr", [first, second])
    ResubmissionsStage(["tmlr"])(store)
    rows = pq.read_table(tmp_path / paths.RESUBMISSION_LINKS).to_pylist()
    assert [(r["earlier"], r["later"], r["evidence"], r["confidence"]) for r in rows] == [
        ("tmlr_a", "tmlr_b", "explicit:resubmission_of", 1.0)]


def test_links_chains_and_left_alone_are_duckdb_views(tmp_path):
    from reviewbench_assets.io.views import duckdb_views

    store = store_from_uri(str(tmp_path))
    write_parsed(store, "iclr-2024", [V1, GRAPH, BARE])
    write_parsed(store, "neurips-2024", [V2, RL])
    write_parsed(store, "iclr-2025", [V3])
    ResubmissionsStage(KEYS)(store)
    con = duckdb_views(store, KEYS)
    steps = con.sql("SELECT s.forum_id, s.decision FROM resubmission_chains c, unnest(c.steps) t(s) "
                    "ORDER BY s.submitted_ms").fetchall()
    assert steps == [("iclr24_a", "Reject"), ("nips24_b", "Accept (poster)"), ("iclr25_c", "Accept (Poster)")]
    pairs = con.sql("SELECT earlier_venue_year, later_venue_year FROM resubmission_links ORDER BY ALL").fetchall()
    assert pairs == [("iclr-2024", "iclr-2025"), ("iclr-2024", "neurips-2024"), ("neurips-2024", "iclr-2025")]
    # the links join the parsed forums by id (a view over every venue-year's parsed table)
    titles = con.sql("SELECT p.title FROM resubmission_links l JOIN parsed p ON p.forum_id = l.later "
                     "WHERE l.earlier = 'iclr24_a' ORDER BY p.partition").fetchall()
    assert len(titles) == 2
    assert con.sql("SELECT forum_id, reason FROM resubmission_left_alone").fetchall() == [("iclr24_bare", "too_little_text")]
