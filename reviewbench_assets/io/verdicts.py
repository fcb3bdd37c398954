"""The check verdicts: which data-guarding checks failed for a partition, recorded under
`checks/<pk>/<asset>.json` by the asset layer (`write_verdict`) and read by the downstream stages that
must leave such a partition out (`blocking_failures`: the conference split, and so the card). A verdict
belongs to the data it judged (issue 29.2): a record names the files it judged (`JUDGED_FILES`:
root-relative path -> [size, modification time in ns], as published; a stage's publish rewrites its
files, so both change), and a reader trusts it only for exactly those files. Data without a verdict
of its own (a run killed between publishing and recording its checks, or a record of older data)
is treated as failing until its asset is materialized again, never as passing.

A stage that knows its checks before its files are in place stages its verdict into the same
publication (`stage_verdict`, issue 38.3): the record then moves with the data it judged, in one
journal, so a run killed while moving its files leaves a set whose replay brings back the data WITH
its verdict. Such a record also names each judged file's sha256 (read from the staged bytes): a
replay on S3 is a server-side copy, which gives the file a new modification time, and the verdict
still holds for the same bytes (`verdict_holds`). Dagster-free."""
from __future__ import annotations

import json

import pyarrow.fs as pafs

from resources.store import Store
from reviewbench_assets.io.layout import paths

# asset -> the files of a partition its data-guarding checks judge (what downstream stages read)
JUDGED_FILES = {
    "openreview_forums": (paths.raw_forums, paths.quarantine),
    "parsed_forums": (paths.parsed, paths.parsed_quarantine),
    # the exclusions too: the coverage check judged dialogues against them, and an empty exclusions
    # file is valid JSONL, so its recorded size (and time) is what tells an emptied one (issue 38.8)
    "rebuttal_dialogues": (paths.dialogues, paths.dialogue_exclusions, paths.re2_review, paths.re2_rebuttal),
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


def stage_verdict(store: Store, pub, partition_key: str, asset: str, failed: dict[str, str], overridden: bool,
                  staged: dict[str, str]) -> None:
    """Stage the verdict of the files this publication `pub` is about to move into place (`staged`:
    root-relative final path -> its staging path) into that same publication: judged as the files
    will be once moved (a local move is a rename: size and modification time stay), with their sha256."""
    judged, sums = {}, {}
    for where in JUDGED_FILES.get(asset, ()):
        rel = where(partition_key)
        if rel in staged:
            info = store.fs.get_file_info(staged[rel])
            judged[rel], sums[rel] = [info.size, info.mtime_ns], store.sha256(staged[rel])
    record = {"failed": failed, "overridden": bool(failed) and overridden, "judged": judged, "sha256": sums}
    with store.fs.open_output_stream(pub.target(store.path(paths.check_record(partition_key, asset)))) as f:
        f.write(json.dumps(record, sort_keys=True).encode())


def same_bytes(store: Store, rec: dict, rel: str, now: list[int]) -> bool:
    """Whether the file `rel` as it is `now` ([size, mtime_ns]) is the one the verdict `rec` judged:
    the same size and time, or (a record staged with its data) the same size and sha256."""
    was = (rec.get("judged") or {}).get(rel)
    if was == now:
        return True
    sha = (rec.get("sha256") or {}).get(rel)
    return bool(sha) and isinstance(was, list) and was[:1] == now[:1] and store.sha256(store.path(rel)) == sha


def verdict_holds(store: Store, rec, now: dict[str, list[int]]) -> bool:
    """The record `rec` judged exactly the files `now` (judged_data), each as it is now."""
    return isinstance(rec, dict) and isinstance(rec.get("judged"), dict) and set(rec["judged"]) == set(now) \
        and all(same_bytes(store, rec, rel, info) for rel, info in now.items())


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
            holds = verdict_holds(view, rec, now)
        if asset in JUDGED_FILES and now and not holds:
            out[f"{asset}.verdict"] = (
                f"its data ({', '.join(sorted(now))}) has no check verdict of its own: published after its "
                f"checks were last recorded (a run killed in between?) or never judged; re-materialize {asset} "
                f"for {partition_key} to judge it")
        elif rec and rec.get("failed") and not rec.get("overridden"):
            out.update({f"{asset}.{name}": desc for name, desc in rec["failed"].items()})
    return out
