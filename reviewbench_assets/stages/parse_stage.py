"""The `parsed_forums` stage: every raw forum of a venue-year parsed once (`domain/forum.py`),
routed once (`domain/routing.py`), and written as `parsed/<pk>.parquet` (schema.PARSED_SCHEMA) with
`parsed/<pk>.quarantine.parquet` (a reason code and its detail per problem). The dialogues, the
rows, the Re^2 records and the PDF stage (each forum's raw submission note, `submission_json`) read
these files; nothing downstream parses raw JSON again, so a parser fix re-derives the dialogues and
rows without an OpenReview request."""
from __future__ import annotations

import json
from collections import Counter

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import Store, parquet_writer
from reviewbench_assets import paths
from reviewbench_assets.domain.forum import MalformedForumError, parse_routed
from reviewbench_assets.domain.parsed_table import parsed_row
from reviewbench_assets.domain.quarantine import reasons_of_parsed, without_foreign_replies
from reviewbench_assets.domain.schema import PARSED_QUARANTINE_SCHEMA, PARSED_SCHEMA
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.result import CheckOutcome, StageResult, Table

BATCH_ROWS = 64  # parsed forums buffered before a row group is written (forum_json is the bulk)
QUARANTINE_CHECK = "quarantined_share"
QUARANTINE_CHECK_DESCRIPTION = ("share of forums the parser quarantined (malformed, replies skipped, orphaned or "
                                "under invitations the catalogue does not know) stays under max_quarantined_share")


def forum_problems(record: dict, venue: VenueYear) -> tuple[object | None, list[dict]]:
    """(parsed forum and its routing, or None when the forum is unusable; its problems). A payload
    holding another forum's replies is not parsed, and what else is wrong with the rest of it is
    recorded too, so every bad reply has its own reason."""
    fid, note = record.get("forum_id"), record.get("note")
    problems: list[dict] = []
    while True:
        try:
            parsed = parse_routed(note, venue, record.get("review_edits"))
        except MalformedForumError as exc:
            problems.append({"forum_id": fid, "code": exc.code,
                             "detail": exc.reason, "parsed": False})
            rest = without_foreign_replies(note, exc)
            if rest is None:
                return None, problems
            note = rest  # look at the rest of it; the forum itself stays unparsed
            continue
        found = [{"forum_id": fid, "code": r.code, "detail": str(r), "parsed": not problems}
                 for r in reasons_of_parsed(parsed[0], venue)]
        return (None if problems else parsed), problems + found


def submission_json(note: dict) -> str:
    """The submission note as crawled, without its replies (`details`): what the PDF stage reads."""
    return json.dumps({k: v for k, v in note.items() if k != "details"}, ensure_ascii=False)


def parse_venue(venue: VenueYear, store: Store, max_quarantined_share: float = 0.05) -> StageResult:
    out, q_out = store.path(paths.parsed(venue.key)), store.path(paths.parsed_quarantine(venue.key))
    counts: Counter = Counter()
    codes: Counter = Counter()
    samples: list[dict] = []
    with store.publish() as pub:  # the table and its quarantine move into place together
        with parquet_writer(store.fs, pub.target(out), PARSED_SCHEMA) as w, \
                parquet_writer(store.fs, pub.target(q_out), PARSED_QUARANTINE_SCHEMA) as qw:
            rows: list[dict] = []
            problems: list[dict] = []
            for ordinal, record in enumerate(Upstream(store, venue.key).raw_forums()):
                fid = record.get("forum_id")
                counts["records"] += 1
                result, found = forum_problems(record, venue)
                problems += found
                counts["forums_with_problems"] += bool(found)
                if result is None:
                    counts["malformed_forums"] += 1
                    continue
                parsed, routing = result
                row = parsed_row(parsed, routing, venue, ordinal, record.get("fetched_at"), submission_json(record["note"]))
                counts["forums"] += 1
                counts["reviews"] += row["num_reviews"]
                counts["posts"] += len(row["posts"])
                counts["edited_reviews_with_history"] += len(parsed.review_history)
                for post in row["posts"]:
                    counts[f"posts_{post['place']}"] += 1
                if len(samples) < 10:
                    samples.append({"forum_id": fid, "title": row["title"], "status": row["status"],
                                    "reviews": row["num_reviews"], "posts": len(row["posts"]),
                                    "decision": row["decision"]})
                rows.append(row)
                if len(rows) >= BATCH_ROWS:
                    w.write_table(pa.Table.from_pylist(rows, schema=PARSED_SCHEMA))
                    rows.clear()
            if rows or counts["forums"] == 0:
                w.write_table(pa.Table.from_pylist(rows, schema=PARSED_SCHEMA))
            codes.update(p["code"] for p in problems)
            qw.write_table(pa.Table.from_pylist(problems, schema=PARSED_QUARANTINE_SCHEMA))
    share = counts["forums_with_problems"] / max(counts["records"], 1)
    check = CheckOutcome(
        QUARANTINE_CHECK, passed=share <= max_quarantined_share,
        description=f"{venue.key}: {QUARANTINE_CHECK_DESCRIPTION}",
        metadata={"partition": venue.key, "share": round(share, 4), "threshold": f"<= {max_quarantined_share}",
                  "quarantined": counts["forums_with_problems"], "codes": dict(codes.most_common()),
                  "examples": Table(problems[:10], ["forum_id", "code", "detail"], what="problems")})
    return StageResult(
        written={"path": out, "quarantine_path": q_out}, row_count=counts["forums"], checks=[check],
        counts={**{k: counts[k] for k in ("reviews", "posts", "malformed_forums", "edited_reviews_with_history",
                                          "posts_thread", "posts_reference_context", "posts_excluded",
                                          "posts_none", "posts_unrouted")},
                "quarantine_codes": dict(codes.most_common()), "quarantined_forums": counts["forums_with_problems"]},
        samples=samples, sample_columns=["forum_id", "title", "status", "reviews", "posts", "decision"])
