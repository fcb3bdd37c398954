"""Every corpus file checked where it is read (issue 38.1): a conference split's part record
(`corpus_stats/<split>/<pk>.json`, io/layout.py `split_part`) names each file it published with its
sha256, recorded in the same publication as the files (one journal). Whoever trusts those files
checks them first: the split, before it keeps a part as current (a part whose file fails is written
again, never trusted because its file exists), the card, before it lists a file in README.md, and
`scripts.verify`. A file that fails is named with what to re-materialize. Dagster-free."""
from __future__ import annotations

import pyarrow.fs as pafs

from resources.store import Store


def file_problem(store: Store, rel: str, sha256: str | None) -> str | None:
    """Why the root-relative file `rel` is not the one its record names (None: it is): missing, empty,
    or other bytes than those published (`sha256`; a record without one only asks that it exists)."""
    path = store.path(rel)
    try:
        info = store.fs.get_file_info(path)
        if info.type != pafs.FileType.File:
            return "missing"
        if not info.size:
            return "empty (0 bytes)"
        if sha256 is not None and store.sha256(path) != sha256:
            return "its bytes are not those published (sha256 differs: truncated, overwritten or damaged)"
    except OSError as exc:
        return f"unreadable ({exc})"
    return None


def part_damage(store: Store, part: dict) -> dict[str, str]:
    """{root-relative file: problem} of a part record's files that fail their check."""
    sums = part.get("sha256") or {}
    return {f: p for f in part.get("files", []) if (p := file_problem(store, f, sums.get(f)))}


def remedy(split: str, pk: str) -> str:
    return f"re-materialize {split}_split (it rewrites venue-year {pk}'s part)"


class DamagedPartError(IOError):
    """Files of a published part fail their check; the message names each file and what to re-run."""

    def __init__(self, split: str, damaged: dict[str, dict[str, str]]):
        self.split, self.damaged = split, damaged
        lines = [f"{f}: {problem}; {remedy(split, pk)}" for pk, files in damaged.items()
                 for f, problem in files.items()]
        super().__init__("damaged corpus files:\n" + "\n".join(lines))


def stage_card_checksum(store: Store, pub, text: str) -> None:
    """Stage README.md's sha256 record (io/layout.py `card_checksum`) into `pub`, the publication that
    stages README.md itself: the card's bytes are checked like every other published file."""
    import hashlib
    import json

    from reviewbench_assets.io.layout import paths

    with store.fs.open_output_stream(pub.target(store.path(paths.card_checksum()))) as f:
        f.write(json.dumps({"README.md": hashlib.sha256(text.encode("utf-8")).hexdigest()}).encode())
