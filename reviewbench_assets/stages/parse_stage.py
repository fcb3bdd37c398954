"""The `parsed_forums` stage: every raw forum of a venue-year parsed once (`domain/forum.py`),
routed once (`domain/routing.py`), and written as `parsed/<pk>.parquet` (schema.PARSED_SCHEMA) with
`parsed/<pk>.quarantine.parquet` (a reason code and its detail per problem). The dialogues, the
rows and the Re^2 records read these files; nothing downstream parses raw JSON again, so a parser
fix is `--select parsed_forums+` and costs no OpenReview request."""
from __future__ import annotations

from collections import Counter

import pyarrow as pa

from partitions.catalogue import VenueYear
from resources.store import Store, parquet_writer
from reviewbench_assets import paths
from reviewbench_assets.domain.forum import MalformedForumError, parse_routed
from reviewbench_assets.domain.parsed_table import parsed_row
from reviewbench_assets.domain.quarantine import reason_code, reasons_of_parsed
from reviewbench_assets.domain.schema import PARSED_QUARANTINE_SCHEMA, PARSED_SCHEMA
from reviewbench_assets.stages.result import StageResult

BATCH_ROWS = 64  # parsed forums buffered before a row group is written (forum_json is the bulk)


def parse_venue(venue: VenueYear, store: Store) -> StageResult:
    out, q_out = store.path(paths.parsed(venue.key)), store.path(paths.parsed_quarantine(venue.key))
    counts: Counter = Counter()
    codes: Counter = Counter()
    samples: list[dict] = []
    with store.publish() as pub:  # the table and its quarantine move into place together
        with parquet_writer(store.fs, pub.target(out), PARSED_SCHEMA) as w, \
                parquet_writer(store.fs, pub.target(q_out), PARSED_QUARANTINE_SCHEMA) as qw:
            rows: list[dict] = []
            problems: list[dict] = []
            for ordinal, record in enumerate(store.iter_jsonl(store.path(paths.raw_forums(venue.key)),
                                                              scrub_surrogates=True)):
                fid = record.get("forum_id")
                try:
                    parsed, routing = parse_routed(record.get("note"), venue, record.get("review_edits"))
                except MalformedForumError as exc:
                    problems.append({"forum_id": fid, "code": reason_code(f"malformed forum: {exc.reason}"),
                                     "detail": exc.reason, "parsed": False})
                    counts["malformed_forums"] += 1
                    continue
                problems += [{"forum_id": fid, "code": reason_code(r), "detail": r, "parsed": True}
                             for r in reasons_of_parsed(parsed, venue)]
                row = parsed_row(parsed, routing, venue, ordinal, record.get("fetched_at"))
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
    return StageResult(
        written={"path": out, "quarantine_path": q_out}, row_count=counts["forums"],
        counts={**{k: counts[k] for k in ("reviews", "posts", "malformed_forums", "edited_reviews_with_history",
                                          "posts_thread", "posts_reference_context", "posts_excluded",
                                          "posts_none", "posts_unrouted")},
                "quarantine_codes": dict(codes.most_common())},
        samples=samples, sample_columns=["forum_id", "title", "status", "reviews", "posts", "decision"])
