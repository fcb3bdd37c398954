"""`verify`: a storage root checked end to end, local or S3, like `git fsck` (issue 38.2). Dagster-free;
the command is `python -m scripts.verify`, the Dagster job `verify_storage` (reviewbench_assets/definitions.py).

What is checked, each file against what its publication recorded or, where nothing recorded it, its
format's own check:
- a conference split's files against their part record's sha256 (io/checksums.py), and the part
  records and split figures as JSON;
- README.md's `data_files`: every listed file exists and belongs to a part whose files pass;
- every check verdict (`checks/<pk>/<asset>.json`) against the data it judged (io/verdicts.py: the
  files it names, their size and modification time), so a judged file deleted, emptied or rewritten
  is found;
- every other published file by its format: Parquet read whole with its page checksums, JSON and JSONL
  parsed, a PDF against the sha256 in its name, a PNG against its chunks' CRCs;
- files a record or a sibling says must be there (a deletion leaves no bytes to check): a part's
  inputs, README.md and its plots, a venue-year's stored PDFs, the files one publication writes
  together, the resubmissions set and the venue-years' records its state names;
- pending publication journals (a set half moved into place) and staging files of dead runs.
Caches and checkpoints (`checkpoints/`, `.locks/`) are not published data: a damaged entry there is
a miss, asked again, so they are left out.

Nothing is changed (the root is opened without the replay every other opening does) unless `repair`:
then dead runs' journals are replayed and their staging removed, and the conference splits whose
parts are damaged are brought up to date (the split writes a failing part again), then the card.
Every other damaged file is named with the asset and partition to re-materialize."""
from __future__ import annotations

import inspect

from partitions.catalogue import catalogue
from resources.store import Store
from reviewbench_assets.data_path import OWNED_PATHS
from reviewbench_assets.io import layout
from reviewbench_assets.io.integrity import Finding, Report, check_root
from reviewbench_assets.stages.figures import RESUBMISSIONS

__all__ = ["Finding", "Report", "verify", "main_text", "owners", "resubmission_set"]


def owners() -> dict[str, tuple[str, str]]:
    """root-relative path -> (asset, partition) for every per-venue-year file a stage owns."""
    out: dict[str, tuple[str, str]] = {}
    keys = [v.key for v in catalogue().venues]
    for stage, names in OWNED_PATHS.items():
        for name in names:
            fn = getattr(layout.paths, name, None)
            if not callable(fn) or len(inspect.signature(fn).parameters) != 1:
                continue
            for pk in keys:
                out[fn(pk)] = (stage, pk)
    return out


def resubmission_set() -> tuple[str, ...]:
    """The corpus-level files the resubmissions stage declares (`ResubmissionsStage.writes`, the
    paths that take no partition), which it publishes together."""
    return tuple(where for name in OWNED_PATHS[RESUBMISSIONS]
                 if isinstance(where := getattr(layout.paths, name), str))


def verify(store: Store, repair: bool = False, log=print) -> Report:
    """Check the root (see the module docstring); with `repair`, mend what can be mended here and
    check again. The returned report is the last check's."""
    report = check_root(store, owners(), resubmission_set())
    if not repair or not report.findings:
        return report
    from reviewbench_assets.stages.card_stage import CardStage
    from reviewbench_assets.stages.split_stage import SplitStage

    store.recover()  # dead runs' journals replayed, half journals deleted
    store.sweep_staging(store.root)
    repaired = ["publication journals and staging of dead runs"]
    for split in sorted(report.splits_to_repair):
        SplitStage(split, log=log)(store)
        repaired.append(f"{split}_split")
    if report.splits_to_repair or any(f.path.startswith("corpus/") for f in report.damaged):
        CardStage()(store)
        repaired.append("dataset_card")
    again = check_root(store, owners(), resubmission_set())
    again.repaired = repaired
    return again


def main_text(report: Report) -> tuple[str, int]:
    """The command's output and exit code (1 when anything is damaged)."""
    return report.text(), 1 if report.damaged else 0


