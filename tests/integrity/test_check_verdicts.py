"""Issue 29.2: a check's verdict belongs to the data it judged. A run killed after the crawl
published its files but before its (failing) check was recorded left the previous "passed" record
in place, and a downstream run trusted it. A record now names the files it judged (size and
modification time of each, as published); a reader trusts it only for exactly those files, and
data without a verdict of its own is treated as failing, never as passing."""
from __future__ import annotations

import dagster as dg
import pytest

from resources import StorageResource
from resources.store import dumps_json, store_from_uri
from reviewbench_assets.assets import split_assets
from reviewbench_assets.dagster_step import guard_upstream, record_checks
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.verdicts import blocking_failures
from reviewbench_assets.stages.split_stage import UPSTREAM_GUARDED
from tests.published import publish_set
from tests.splits.conftest import make_rows, write_venue_rows

PK = "iclr-2024"


def _passed(store, pk: str, asset: str) -> None:
    record_checks(store, pk, asset, [dg.AssetCheckResult(check_name="quarantined_share", passed=True)],
                  allow_failing=False)


def _crawl(store, pk: str, title: str) -> None:
    """What the crawl publishes (forums and quarantine, one set), without recording its checks."""
    publish_set(store, {store.path(path): b"".join(dumps_json(r) + b"\n" for r in rows)
                        for path, rows in ((paths.raw_forums(pk), [{"forum_id": "a", "title": title}]),
                                           (paths.quarantine(pk), []))})


def _iclr_split(root) -> dict:
    [asset] = [a for a in split_assets if a.key.to_user_string() == "iclr_split"]
    result = dg.materialize([asset], resources={"storage": StorageResource(root=str(root))})
    return {k: v.value for k, v in result.get_asset_materialization_events()[0].materialization.metadata.items()}


def test_a_passed_record_of_earlier_data_is_not_trusted_for_data_published_after_it(tmp_path):
    import pyarrow.fs as pafs

    local_fs = pafs.LocalFileSystem()
    store = store_from_uri(str(tmp_path))
    for pk in ("iclr-2023", PK):
        _crawl(store, pk, "a title")
        _passed(store, pk, "openreview_forums")
        write_venue_rows(local_fs, str(tmp_path), pk, make_rows(pk, 6))  # rows judged as written
    assert blocking_failures(store, PK, UPSTREAM_GUARDED) == {}
    assert _iclr_split(tmp_path)["venue_years"] == ["iclr-2023", PK]

    _crawl(store, PK, "x" * 1_000_000)  # the crawl published a bad venue-year; killed before its record
    failed = blocking_failures(store, PK, UPSTREAM_GUARDED)
    assert list(failed) == ["openreview_forums.verdict"], failed
    assert "re-materialize openreview_forums" in failed["openreview_forums.verdict"]
    with pytest.raises(dg.Failure, match="openreview_forums"):
        guard_upstream(store, PK, UPSTREAM_GUARDED, allow_failing=False, log=print)
    meta = _iclr_split(tmp_path)
    assert meta["venue_years"] == ["iclr-2023"] and list(meta["blocked_venue_years"]) == [PK]

    _passed(store, PK, "openreview_forums")  # judged again: the verdict is this data's
    assert blocking_failures(store, PK, UPSTREAM_GUARDED) == {}


def test_data_without_any_verdict_is_treated_as_failing(tmp_path):
    store = store_from_uri(str(tmp_path))
    assert blocking_failures(store, PK, ["openreview_forums"]) == {}  # no data: nothing to judge
    _crawl(store, PK, "first crawl, killed before its checks were recorded")
    assert list(blocking_failures(store, PK, ["openreview_forums"])) == ["openreview_forums.verdict"]
    _passed(store, PK, "openreview_forums")
    assert blocking_failures(store, PK, ["openreview_forums"]) == {}
    store.write_json(store.path(paths.check_record(PK, "openreview_forums")), {"failed": {}, "overridden": False})
    assert list(blocking_failures(store, PK, ["openreview_forums"])) == ["openreview_forums.verdict"]  # names no data
