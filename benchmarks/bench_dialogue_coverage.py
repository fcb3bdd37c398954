"""`dialogue_coverage` per replica partition (issue 10; goal 1.0): author and reviewer posts that
are a turn of exactly one dialogue, reference context, a dropped reminder or excluded with a
reason, over all of them, on the replica's forums of every venue-year. Measured on what the parse
stage stored (issue 39 item 4): the forums go through `ParseStage` into a scratch store, and the
dialogues and their accounting are built from the parsed table's forums and routing, read back as
the `rebuttal_dialogues` stage reads them (`Upstream.parsed_forums`): the one routing entrance.

Baseline (same run, same forums): what the dialogues accounted for before issue 10 -- official
reviews, every post under a review, and the authors' top-level notes (global responses) -- so a
post of a reviewer without a review, an answer to a reviewer's top-level comment or to an area
chair's note, and every post excluded for a reason count as lost there.
"""
from __future__ import annotations

import copy
import tempfile

from benchmarks.common import figure
from openreview_replica.fixtures import build_fixtures
from openreview_replica.venues import VENUE_SPECS
from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.domain.dialogues import build_dialogues
from reviewbench_assets.domain.routing import ACCOUNTED_ROLES, account_posts, coverage
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.parse_stage import ParseStage

FORUMS = 32


def _baseline(p) -> int:
    """Posts the one-thread-per-review rule reached (reviews, their subtrees, global responses)."""
    reached = set(p.global_response_ids)
    for r in p.posts:
        if r.kind == "review" and not r.deleted:
            reached.add(r.note_id)
            reached.update(q.note_id for q in p.descendants(r.note_id) if not q.deleted)
    return sum(q.note_id in reached for q in p.posts if q.role in ACCOUNTED_ROLES)


def run() -> list[dict]:
    fx = build_fixtures(sorted(VENUE_SPECS), seed=0, n_forums=FORUMS, eager_pdfs=False)
    out = []
    with tempfile.TemporaryDirectory(prefix="bench_dialogue_coverage_") as root:
        store = store_from_uri(root)
        for key, vf in sorted(fx.venues.items()):
            venue = catalogue().get(key)
            records = []
            for sub in vf.submissions:
                raw = copy.deepcopy(sub)
                raw["details"] = {"replies": copy.deepcopy(vf.replies_by_forum.get(sub["id"], []))}
                records.append({"forum_id": raw["id"], "note": raw, "fetched_at": 0.0})
            ParseStage(venue, max_quarantined_share=1.0)(store, inputs={"raw_forums": records})
            done = total = before = 0
            for p, routing in Upstream(store, key).parsed_forums():  # the parse stage's stored routing
                a, n = coverage(account_posts(p, build_dialogues(p, routing), routing))
                done, total, before = done + a, total + n, before + _baseline(p)
            out.append(figure("dialogue_coverage", round(done / total, 6), "share", round(before / total, 6),
                              partition=key, posts=total, goal=1.0, forums=len(records),
                              measured_on="the parse stage's stored routing (parsed/<pk>.parquet)"))
    return out


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
