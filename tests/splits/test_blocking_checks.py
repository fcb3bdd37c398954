"""Checks that guard data block it (issue 22): a venue-year whose data failed a blocking check does not
reach its conference split (nor so the card), a later run of a downstream asset refuses it, and the
asset config `allow_failing_checks` overrides on purpose."""
from __future__ import annotations

import dagster as dg
import pytest

from resources import StorageResource
from resources.store import store_from_uri
from reviewbench_assets.assets import split_assets
from reviewbench_assets.dagster_step import guard_upstream, record_checks
from reviewbench_assets.io.verdicts import blocking_failures
from reviewbench_assets.stages.card_stage import CardStage
from reviewbench_assets.stages.figures import SPLIT
from tests.splits.conftest import write_venue_rows
from tests.stages.figures_check import assert_every_figure, expected


def _failed(name: str) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(check_name=name, passed=False, description=f"{name} failed")


def test_recorded_failures_are_read_back_and_overridable(tmp_path):
    store = store_from_uri(str(tmp_path))
    record_checks(store, "iclr-2024", "openreview_forums", [_failed("quarantined_share")], allow_failing=False)
    record_checks(store, "iclr-2024", "rebuttal_dialogues", [_failed("dialogue_coverage")], allow_failing=True)
    record_checks(store, "iclr-2023", "openreview_forums", [dg.AssetCheckResult(check_name="quarantined_share",
                                                                                passed=True)], allow_failing=False)
    assert blocking_failures(store, "iclr-2024", ["openreview_forums", "rebuttal_dialogues"]) == {
        "openreview_forums.quarantined_share": "quarantined_share failed"}  # the overridden one does not block
    assert blocking_failures(store, "iclr-2023", ["openreview_forums", "rebuttal_dialogues"]) == {}
    with pytest.raises(dg.Failure) as exc:
        guard_upstream(store, "iclr-2024", ["openreview_forums"], allow_failing=False, log=print)
    assert "quarantined_share" in exc.value.description and "allow_failing_checks" in exc.value.description
    warned = []
    guard_upstream(store, "iclr-2024", ["openreview_forums"], allow_failing=True, log=warned.append)
    assert warned and "as configured" in warned[0]


def test_a_blocked_venue_year_stays_out_of_its_conference_split(tmp_path, local_fs, rows_factory, input_writer):
    store = store_from_uri(str(tmp_path))
    for pk in ("iclr-2023", "iclr-2024"):
        write_venue_rows(local_fs, str(tmp_path), pk, rows_factory(pk, 12))
    record_checks(store, "iclr-2024", "reviewbench_split", [_failed("unique_forum_id")], allow_failing=False)
    [iclr_split] = [a for a in split_assets if a.key.to_user_string() == "iclr_split"]
    result = dg.materialize([iclr_split], resources={"storage": StorageResource(root=str(tmp_path))})
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    assert meta["venue_years"].value == ["iclr-2023"]
    assert meta["blocked_venue_years"].value == {"iclr-2024": ["reviewbench_split.unique_forum_id"]}
    assert meta["dagster/row_count"].value == 12
    assert set(meta) == expected(SPLIT) | {"dagster/column_schema"}  # every declared figure, nothing else
    card = CardStage()(store)  # the card from that split's figures
    assert_every_figure(card)
    assert card.figures["splits"] == {"iclr": 12}
