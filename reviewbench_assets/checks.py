"""Data checks emitted with their asset's materialization, and which of them guard data (block).

Emitting results from inside the asset keeps them partition-aware without loading every
partition (an unpartitioned @asset_check would; see docs/dagster-notes.md §2.6). The check specs
carry the asset's partitions (Dagster 1.13's partitioned asset checks, a preview feature), so each
result is recorded for the partition it checked; the partition is in its description and metadata
too. Thresholds are text, so the UI does not plot a constant as a series.
"""
from __future__ import annotations

import warnings

import dagster as dg

from reviewbench_assets.io.layout import blocking_failures, write_verdict

# Checks whose failure means wrong data downstream: blocking (a failure with ERROR severity fails the
# step, so nothing downstream runs in that run) and recorded under the storage root, so a later run
# of a downstream asset refuses the partition too (`guard_upstream`, `blocked_partitions`).
BLOCKING_CHECKS = frozenset({"quarantined_share", "dialogue_coverage", "unique_forum_id", "empty_markdown_share"})
OVERRIDE_HINT = ("set allow_failing_checks: true in this asset's config to publish it anyway "
                 "(the check then reports as a warning)")


class GuardConfig(dg.Config):
    # On purpose only: a data-guarding check that fails is then reported as a WARN and does not block
    # downstream assets (e.g. a venue-year whose quarantine share is known and accepted).
    allow_failing_checks: bool = False


def partitioned_check_specs(asset: str, checks: dict[str, str],
                            partitions_def: dg.PartitionsDefinition) -> list[dg.AssetCheckSpec]:
    """Check specs partitioned like their asset (results are attributed to the run's partition)."""
    with warnings.catch_warnings():  # "Specifying a partitions_def on an AssetCheckSpec" is a preview
        warnings.simplefilter("ignore")
        return [dg.AssetCheckSpec(name, asset=asset, description=desc, partitions_def=partitions_def,
                                  blocking=name in BLOCKING_CHECKS)
                for name, desc in checks.items()]


def guarded(results: list[dg.AssetCheckResult], allow_failing: bool) -> list[dg.AssetCheckResult]:
    """Blocking checks fail with ERROR severity (they block) unless the run overrides them on purpose."""
    out = []
    for r in results:
        if r.check_name in BLOCKING_CHECKS and not r.passed:
            meta = {**r.metadata, "blocks_downstream": not allow_failing,
                    "how_to_override": dg.MetadataValue.text(OVERRIDE_HINT)}
            r = dg.AssetCheckResult(passed=False, asset_key=r.asset_key, check_name=r.check_name, metadata=meta,
                                    severity=dg.AssetCheckSeverity.WARN if allow_failing else dg.AssetCheckSeverity.ERROR,
                                    description=r.description)
        out.append(r)
    return out


def record_checks(store, partition_key: str, asset: str, results: list[dg.AssetCheckResult],
                  allow_failing: bool) -> None:
    """Write which data-guarding checks of this partition failed, for downstream runs to refuse it; the
    record names the data it judged (io/layout.py), so it is trusted for that data only."""
    failed = {r.check_name: r.description or r.check_name for r in results
              if r.check_name in BLOCKING_CHECKS and not r.passed}
    write_verdict(store, partition_key, asset, failed, allow_failing)  # names the data it judged


def guard_upstream(store, partition_key: str, assets: list[str], allow_failing: bool, log) -> None:
    """Refuse to build on a partition whose upstream data failed a blocking check (unless overridden)."""
    failed = blocking_failures(store, partition_key, assets)
    if not failed:
        return
    listing = "; ".join(f"{k}: {v}" for k, v in failed.items())
    if allow_failing:
        log(f"{partition_key}: building on data that failed blocking checks, as configured: {listing}")
        return
    raise dg.Failure(description=f"{partition_key}: upstream data failed blocking checks ({listing}); fix the "
                                 f"data and re-materialize, or {OVERRIDE_HINT}",
                     metadata={"failed_checks": dg.MetadataValue.json(failed)}, allow_retries=False)
