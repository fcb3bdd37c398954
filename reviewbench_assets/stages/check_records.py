"""Which data-guarding checks failed for a partition, as recorded under the storage root
(`checks/<pk>/<asset>.json`, written by `reviewbench_assets.checks.record_checks`): read by the
downstream stages that must leave such a partition out (the conference split, and so the card)."""
from __future__ import annotations

from resources.store import Store
from reviewbench_assets import paths


def blocking_failures(store: Store, partition_key: str, assets: list[str]) -> dict[str, str]:
    """`asset.check` -> description of the blocking checks that failed (and were not overridden) for
    this partition at the assets' last materialization."""
    out = {}
    for asset in assets:
        rec = store.read_json_or_none(store.path(paths.check_record(partition_key, asset)))
        if rec and rec.get("failed") and not rec.get("overridden"):
            out.update({f"{asset}.{name}": desc for name, desc in rec["failed"].items()})
    return out
