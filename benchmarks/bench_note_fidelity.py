"""What the parsed table keeps of each OpenReview note (issue 37 items 1 and 4).

openreview_note_values_lost
    Over every replica venue-year (API v1 and v2), every value a note of a forum carries, the
    submission's and each reply's: its content fields, each v2 content field's own readers, and its
    note-level fields (license, cdate/tcdate/mdate/tmdate/odate/pdate/ddate, readers, writers,
    nonreaders, signatures, domain, version, ...): the share the parse stage's stored table
    (`parsed/<pk>.parquet`, read back as every later stage reads it) does not give back equal.
    Baseline, same run and forums: the same count against the typed `Post` fields alone, as the
    table kept a reply before note-level fields were kept (first signature, tmdate over mdate, ddate
    as a flag, no readers).

license_known_share
    On the API v2 venue-years (whose notes carry a `license`), the share of papers and of reviews
    whose license the parsed table's `license` / `review_licenses` columns hold: the columns the rows
    stage writes into the provenance and reviews configs (`stages/rows_stage.py`). Papers and reviews
    separately in the record; value = the lower.
"""
from __future__ import annotations

import copy
import json
import tempfile
from collections import Counter
from typing import Any

from benchmarks.common import figure
from openreview_replica.fixtures import build_fixtures
from openreview_replica.venues import VENUE_SPECS
from partitions.catalogue import catalogue
from resources.store import store_from_uri
from reviewbench_assets.domain.posts import Post, as_list, field_readers, unwrap_content
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.parse_stage import ParseStage

FORUMS = 24
_TYPED = {"id": "note_id", "replyto": "replyto", "number": "number", "cdate": "cdate", "tcdate": "tcdate",
          "license": "license"}
_INVITATIONS = ("invitation", "invitations", "parentInvitations", "parent_invitations")


def _typed(post: Post, key: str, value: Any, forum_id: str) -> bool:
    """The typed fields give the API's value back (`post.note` aside)."""
    if key in _TYPED:
        return getattr(post, _TYPED[key]) == value
    if key == "forum":
        return value == forum_id
    if key in _INVITATIONS:
        kept = post.parent_invitations if key.startswith("parent") else post.invitations
        return set(as_list(value)) <= set(kept)
    if key == "signatures":
        return as_list(value)[:1] == [post.signature] and len(as_list(value)) == 1
    if key in ("mdate", "tmdate"):
        return post.mdate == value
    if key == "ddate":
        return not value and not post.deleted
    return False


def reply_values(raw: dict, post: Post | None, forum_id: str, with_note: bool) -> Counter:
    """`kept` / `lost` counts of one reply's values, and `lost:<field>` per field lost."""
    out: Counter = Counter()
    content = unwrap_content(raw.get("content"))
    own_readers = field_readers(raw.get("content"))
    values = [(f"content.{k}", v, post is not None and post.content.get(k) == v) for k, v in content.items()]
    values += [(f"content.{k}.readers", v, post is not None and with_note and post.content_readers.get(k) == v)
               for k, v in own_readers.items()]
    for key, value in raw.items():
        if key in ("content", "details") or value is None:
            continue
        kept = post is not None and (_typed(post, key, value, forum_id) or (with_note and post.note.get(key) == value))
        values.append((key, value, kept))
    for name, _, kept in values:
        out["kept" if kept else "lost"] += 1
        if not kept:
            out[f"lost:{name.split('.')[0] if name.startswith('content.') and not name.endswith('.readers') else name}"] += 1
    return out


def run() -> list[dict]:
    fx = build_fixtures(sorted(VENUE_SPECS), seed=0, n_forums=FORUMS, eager_pdfs=False)
    now, before = Counter(), Counter()
    papers, reviews = Counter(), Counter()
    v2_keys = []
    with tempfile.TemporaryDirectory(prefix="bench_note_fidelity_") as root:
        store = store_from_uri(root)
        for key, vf in sorted(fx.venues.items()):
            venue = catalogue().get(key)
            records, raw_of = [], {}
            for sub in vf.submissions:
                raw = copy.deepcopy(sub)
                raw["details"] = {"replies": copy.deepcopy(vf.replies_by_forum.get(sub["id"], []))}
                records.append({"forum_id": raw["id"], "note": raw, "fetched_at": 0.0})
                raw_of[raw["id"]] = (sub, vf.replies_by_forum.get(sub["id"], []))
            ParseStage(venue, max_quarantined_share=1.0)(store, inputs={"raw_forums": records})
            upstream = Upstream(store, key)
            for row in upstream.parsed_rows(["forum_id", "submission_json"]):
                sub, _ = raw_of[row["forum_id"]]
                kept = json.loads(row["submission_json"])
                for k, v in sub.items():
                    if k != "details":
                        for c in (now, before):
                            c["kept" if kept.get(k) == v else "lost"] += 1
            for forum, _ in upstream.parsed_forums():
                _, replies = raw_of[forum.forum_id]
                for raw in replies:
                    post = forum.post(str(raw["id"]))
                    now.update(reply_values(raw, post, forum.forum_id, with_note=True))
                    before.update(reply_values(raw, post, forum.forum_id, with_note=False))
            if venue.api == "v2":
                v2_keys.append(key)
                for row in upstream.parsed_rows(["license", "review_licenses"]):
                    papers["known" if row["license"] else "unknown"] += 1
                    for lic in row["review_licenses"] or []:
                        reviews["known" if lic else "unknown"] += 1
    total = now["kept"] + now["lost"]
    lost_by = {k[5:]: n for k, n in sorted(now.items()) if k.startswith("lost:")}
    lost_before = {k[5:]: n for k, n in sorted(before.items()) if k.startswith("lost:")}
    paper_share = papers["known"] / max(1, sum(papers.values()))
    review_share = reviews["known"] / max(1, sum(reviews.values()))
    return [
        figure("openreview_note_values_lost", round(now["lost"] / total, 6), "share of values",
               round(before["lost"] / total, 6), goal=0, values=total, lost=now["lost"], lost_by_field=lost_by,
               lost_by_field_baseline=lost_before, venue_years=len(fx.venues), forums_per_venue_year=FORUMS,
               measured_on="the parse stage's stored table (parsed/<pk>.parquet) against the replica's notes"),
        figure("license_known_share", round(min(paper_share, review_share), 6), "share of records", None, goal=1.0,
               papers=dict(papers), reviews=dict(reviews), paper_share=round(paper_share, 6),
               review_share=round(review_share, 6), venue_years=v2_keys,
               measured_on="the parsed table's license / review_licenses columns, which the provenance and "
                           "reviews configs are written from"),
    ]


if __name__ == "__main__":
    for fig in run():
        print(json.dumps(fig, sort_keys=True))
