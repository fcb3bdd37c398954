"""The check verdicts: which data-guarding checks failed for a partition, recorded under
`checks/<pk>/<asset>.json` by the asset layer (`write_verdict`) and read by the downstream stages that
must leave such a partition out (`blocking_failures`: the conference split, and so the card). A verdict
belongs to the data it judged (issue 29.2): a record names the files it judged (`JUDGED_FILES`:
root-relative path -> [size, modification time in ns], as published; a stage's publish rewrites its
files, so both change), and a reader trusts it only for exactly those files. Data without a verdict
of its own (a run killed between publishing and recording its checks, or a record of older data)
is treated as failing until its asset is materialized again, never as passing. Dagster-free."""
from __future__ import annotations

import pyarrow.fs as pafs

from resources.store import Store
from reviewbench_assets.io.layout import paths

# asset -> the files of a partition its data-guarding checks judge (what downstream stages read)
JUDGED_FILES = {
    "openreview_forums": (paths.raw_forums, paths.quarantine),
    "parsed_forums": (paths.parsed, paths.parsed_quarantine),
    "rebuttal_dialogues": (paths.dialogues, paths.re2_review, paths.re2_rebuttal),
    "reviewbench_split": (paths.rows, paths.provenance, paths.rows_reviews),
}


def judged_data(store: Store, partition_key: str, asset: str) -> dict[str, list[int]]:
    """The asset's data of this partition as it is now: root-relative path -> [size, mtime_ns]."""
    out = {}
    for where in JUDGED_FILES.get(asset, ()):
        info = store.fs.get_file_info(store.path(where(partition_key)))
        if info.type == pafs.FileType.File:
            out[where(partition_key)] = [info.size, info.mtime_ns]
    return out


def write_verdict(store: Store, partition_key: str, asset: str, failed: dict[str, str], overridden: bool) -> None:
    """Record the blocking checks that failed (name -> description) for the asset's data as it is now."""
    store.write_json(store.path(paths.check_record(partition_key, asset)),
                     {"failed": failed, "overridden": bool(failed) and overridden,
                      "judged": judged_data(store, partition_key, asset)})


def blocking_failures(store: Store, partition_key: str, assets: list[str]) -> dict[str, str]:
    """`asset.check` -> description of the blocking checks that failed (and were not overridden) for
    this partition's data as it is now; `asset.verdict` when that data has no verdict of its own."""
    out = {}
    for asset in assets:
        record = store.path(paths.check_record(partition_key, asset))
        # the data and its record as of one moment (a publish of the data is followed by its record)
        with store.snapshot([record, *(store.path(w(partition_key)) for w in JUDGED_FILES.get(asset, ()))]) as view:
            now = judged_data(view, partition_key, asset)
            rec = view.read_json_or_none(record)
        if asset in JUDGED_FILES and now and (not isinstance(rec, dict) or rec.get("judged") != now):
            out[f"{asset}.verdict"] = (
                f"its data ({', '.join(sorted(now))}) has no check verdict of its own: published after its "
                f"checks were last recorded (a run killed in between?) or never judged; re-materialize {asset} "
                f"for {partition_key} to judge it")
        elif rec and rec.get("failed") and not rec.get("overridden"):
            out.update({f"{asset}.{name}": desc for name, desc in rec["failed"].items()})
    return out
