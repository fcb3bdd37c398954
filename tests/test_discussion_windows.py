"""Open venues in the catalogue (issue 30 item 1): an entry states its discussion window as announced,
the code converts it, and one nightly rule refreshes a venue-year while it is open (rolling venues
always), skipping every other night with the reason."""
from __future__ import annotations

from datetime import UTC, datetime

import dagster as dg
import pytest
import yaml

from partitions.catalogue import CATALOGUE_PATH, CatalogueError, catalogue, parse_catalogue
from reviewbench_assets.schedules import refresh_jobs, refresh_schedules


def _tick(schedule, when: datetime):
    return schedule(dg.build_schedule_context(scheduled_execution_time=when))


def test_iclr_2026_window_as_announced_converted_from_aoe():
    d = catalogue().get("iclr-2026").discussion
    assert d is not None and "ReviewerGuide" in d.source
    first, last = d.bounds_utc()
    # November 11 2025 .. December 3 2025, Anywhere on Earth (UTC-12)
    assert first == datetime(2025, 11, 11, 12, 0, 0, tzinfo=UTC)
    assert last == datetime(2025, 12, 4, 11, 59, 59, tzinfo=UTC)


def test_schedules_exist_for_rolling_and_windowed_venues_only():
    live = {v.key for v in catalogue().venues if v.rolling or v.discussion is not None}
    assert {"tmlr", "iclr-2026", "icml-2025"} <= live
    assert set(refresh_schedules) == live == set(refresh_jobs)
    assert "iclr-2024" not in refresh_schedules  # no window stated: never refreshed by itself


@pytest.mark.parametrize("when,runs", [
    (datetime(2025, 11, 11, 3, tzinfo=UTC), False),   # reviews not out yet anywhere on Earth
    (datetime(2025, 11, 12, 3, tzinfo=UTC), True),    # first night inside
    (datetime(2025, 11, 27, 3, tzinfo=UTC), True),
    (datetime(2025, 12, 4, 3, tzinfo=UTC), True),     # still Dec 3 in AoE
    (datetime(2025, 12, 5, 3, tzinfo=UTC), True),     # the night after: the last day's posts read once
    (datetime(2025, 12, 6, 3, tzinfo=UTC), False),
    (datetime(2026, 11, 27, 3, tzinfo=UTC), False),
])
def test_a_windowed_venue_runs_only_inside_its_window(when, runs):
    out = _tick(refresh_schedules["iclr-2026"], when)
    if runs:
        assert isinstance(out, dg.RunRequest)
        assert out.partition_key == "iclr-2026" and out.run_key == f"iclr-2026-{when:%Y-%m-%d}"
    else:
        assert isinstance(out, dg.SkipReason)
        assert "iclr-2026 is not open" in out.skip_message and "ReviewerGuide" in out.skip_message


def test_the_rolling_venue_is_one_case_of_the_same_rule():
    for when in (datetime(2025, 12, 6, 3, tzinfo=UTC), datetime(2026, 7, 1, 3, tzinfo=UTC)):
        out = _tick(refresh_schedules["tmlr"], when)
        assert isinstance(out, dg.RunRequest) and out.partition_key == "tmlr"
    assert refresh_schedules["tmlr"].name == "nightly_tmlr_refresh"
    assert refresh_schedules["iclr-2026"].name == "nightly_iclr_2026_refresh"


def _with(change):
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    change({v["key"]: v for v in doc["venues"]})
    return doc


@pytest.mark.parametrize("change,needle", [
    (lambda v: v["iclr-2026"]["discussion"].update(end="2025-11-01"), "discussion ends (2025-11-01) before it starts"),
    (lambda v: v["iclr-2026"]["discussion"].update(start="2025-09-01"), "discussion starts 2025-09-01, not after the deadline"),
    (lambda v: v["iclr-2026"]["discussion"].update(end="2026-12-03"), "a typo in a date?"),
    (lambda v: v["iclr-2026"]["discussion"].update(tz="Mars/Olympus"), "unknown time zone"),
    (lambda v: v["iclr-2026"]["discussion"].pop("source"), "field discussion.source"),
    (lambda v: v["tmlr"].update(discussion={"start": "2025-01-01", "end": "2025-01-10", "source": "x y z",
                                            "confidence": "low"}), "a rolling venue is always open"),
])
def test_a_wrong_window_names_entry_and_field(change, needle):
    with pytest.raises(CatalogueError) as exc:
        parse_catalogue(_with(change), source="venues.yaml")
    assert needle in str(exc.value)
    assert "key=" in str(exc.value)


@pytest.mark.parametrize("key,when,full", [
    ("iclr-2026", datetime(2025, 11, 12, 3, tzinfo=UTC), False),
    ("iclr-2026", datetime(2025, 11, 18, 3, tzinfo=UTC), True),    # a week into the window
    ("iclr-2026", datetime(2025, 11, 25, 3, tzinfo=UTC), True),
    ("iclr-2026", datetime(2025, 12, 5, 3, tzinfo=UTC), True),     # the last night: the final state, listed whole
    ("tmlr", datetime(2026, 11, 29, 3, tzinfo=UTC), True),         # a Sunday
    ("tmlr", datetime(2026, 11, 27, 3, tzinfo=UTC), False),
])
def test_once_a_week_and_on_the_last_night_the_venue_is_listed_whole(key, when, full):
    """A review made private leaves no trace the tmdate cursor returns: a weekly full listing sees it gone."""
    out = _tick(refresh_schedules[key], when)
    assert isinstance(out, dg.RunRequest)
    config = (out.run_config or {}).get("ops", {}).get("openreview_forums", {}).get("config", {})
    assert config.get("full_refresh", False) is full
    assert out.tags["reviewbench/refresh"] == ("nightly-full-listing" if full else "nightly")


@pytest.mark.parametrize("key, when, closed", [
    # iclr-2026: uploads closed 2025-09-24 23:59:59 AoE + 30 min = 2025-09-25 12:29:59 UTC; discussion
    # until 2025-12-03 AoE (2025-12-04 11:59:59 UTC), refreshed once more the night after
    ("iclr-2026", datetime(2025, 9, 25, 12, 0, tzinfo=UTC), False),  # uploads still accepted
    ("iclr-2026", datetime(2025, 11, 20, 3, 0, tzinfo=UTC), False),  # discussion open
    ("iclr-2026", datetime(2025, 12, 5, 3, 0, tzinfo=UTC), False),  # the night after: its last refresh
    ("iclr-2026", datetime(2025, 12, 5, 12, 0, 1, tzinfo=UTC), True),
    # iclr-2024, no window: closed once uploads closed (2023-09-28 23:59:59 AoE + 30 min)
    ("iclr-2024", datetime(2023, 9, 29, 12, 29, 0, tzinfo=UTC), False),
    ("iclr-2024", datetime(2023, 9, 29, 12, 30, 0, tzinfo=UTC), True),
    ("tmlr", datetime(2030, 1, 1, tzinfo=UTC), False),  # rolling: never
])
def test_a_venue_year_is_closed_once_uploads_and_its_refreshes_are_over(key, when, closed):
    assert catalogue().get(key).closed_at(when) is closed
