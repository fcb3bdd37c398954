"""The crawl stage's comparison with what it stored before (stages/crawl_stage.py refreshes a
venue-year): a compact index of the stored forums (offset, length and the digest of their notes'
tmdates, per forum id), and the first pass that spools every forum of this crawl and sorts it new,
changed or unchanged against that index, so that an unchanged forum keeps its stored review edit
histories and only the new or changed ones are asked for theirs.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from resources.store import CorruptFileError
from reviewbench_assets.io.upstream import JsonlLines, Spool
from reviewbench_assets.stages.crawl import StoredForum, note_tmdates, tmdates_digest


def index_stored(stored: JsonlLines, known: dict[str, int] | None, full_refresh: bool,
                  log: Callable[[str], None]) -> dict[str, StoredForum] | None:
    """A compact index of the stored forums (None when there are none): per forum id, its line's
    offset and length, the digest of its notes' tmdates; `known` (when given) gets every stored
    note's tmdate, for the refresh cursor. A corrupt file is named; with `full_refresh` it is
    re-crawled (repaired), otherwise the error says how to repair it."""
    index: dict[str, StoredForum] = {}
    try:
        for offset, length, rec in stored.scan():
            tmdates = note_tmdates(rec["note"])
            if known is not None:
                known.update(tmdates)
            index[rec["forum_id"]] = StoredForum(offset, length, tmdates_digest(tmdates), "review_edits" in rec)
    except (CorruptFileError, UnicodeDecodeError) as exc:
        if full_refresh:
            log(f"stored crawl is corrupt, re-crawling it (full_refresh): {exc}")
            return None
        raise CorruptFileError(stored.path, f"{exc}; re-materialize openreview_forums with config "
                                         "full_refresh: true to re-crawl and replace it") from exc
    return index


@dataclass
class Compared:
    """The first pass over the forums, against what was stored: compact, one entry per forum id."""
    status: Counter = field(default_factory=Counter)  # new / changed / unchanged / removed
    touched: list[str] = field(default_factory=list)  # new or changed, in file order
    touched_set: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    edits_todo: int = 0  # forums whose review edit histories are to be read (or resumed)


def needs_edits(rec: dict, touched: set[str]) -> bool:
    """A forum's review edit histories are read (or resumed from a checkpoint) when it is new or
    changed, or when no stored line gave them back."""
    return rec["forum_id"] in touched or "review_edits" not in rec


def first_pass(records: Iterable[dict], stored: dict[str, StoredForum], old: JsonlLines | None,
                spool: Spool, review_edits: bool) -> Compared:
    """Spool every forum as it comes, comparing it with the stored one (new / changed / unchanged);
    an unchanged forum keeps its stored review edit histories, read back by offset."""
    c = Compared()
    for rec in records:
        fid = rec["forum_id"]
        c.ids.add(fid)
        was = stored.get(fid)
        if was is not None and was.digest == tmdates_digest(note_tmdates(rec["note"])):
            c.status["unchanged"] += 1
            if "review_edits" not in rec and was.has_edits and old is not None:
                rec["review_edits"] = old.read(was.offset, was.length).get("review_edits")
        else:
            c.status["new" if was is None else "changed"] += 1
            c.touched.append(fid)
            c.touched_set.add(fid)
        if review_edits and needs_edits(rec, c.touched_set):
            c.edits_todo += 1
        spool.append(rec)
    c.status["removed"] = sum(1 for fid in stored if fid not in c.ids)
    return c
