"""The `parsed_forums` stage: every raw forum of a venue-year parsed once (`domain/forum.py`),
routed once (`domain/routing.py`), and written as `parsed/<pk>.parquet` (schema.PARSED_SCHEMA) with
`parsed/<pk>.quarantine.parquet` (a reason code and its detail per problem). The dialogues, the
rows, the Re^2 records and the PDF stage (each forum's raw submission note, `submission_json`) read
these files; nothing downstream parses raw JSON again, so a parser fix re-derives the dialogues and
rows without an OpenReview request."""
from __future__ import annotations

import json

import pyarrow as pa

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.forum import MalformedForumError, parse_routed, parsed_row
from reviewbench_assets.domain.routing import reasons_of_parsed, without_foreign_replies
from reviewbench_assets.domain.schema import PARSED_QUARANTINE_SCHEMA, PARSED_SCHEMA
from reviewbench_assets.io.stage_io import Inputs, Outputs
from reviewbench_assets.stages.figures import PARSE, QUARANTINE, ROW_COUNT, Table
from reviewbench_assets.stages.stage import Stage

BATCH_ROWS = 64  # parsed forums buffered before a row group is written (forum_json is the bulk)
QUARANTINE_CHECK = QUARANTINE
QUARANTINE_CHECK_DESCRIPTION = ("share of forums the parser quarantined (malformed, replies skipped, orphaned or "
                                "under invitations the catalogue does not know) stays under max_quarantined_share")


def submission_json(note: dict) -> str:
    """The submission note as crawled, without its replies (`details`): what the PDF stage reads."""
    return json.dumps({k: v for k, v in note.items() if k != "details"}, ensure_ascii=False)


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


# where the routing puts a post (domain/routing.py post_placements), each counted as `posts_<place>`
PLACES = ("thread", "reference_context", "excluded", "none", "unrouted")


# A post's place (domain/routing.py post_placements) -> the figure that counts it; any other place is
# counted as posts_unrouted.
PLACE_FIGURES = {"thread": "posts_thread", "reference_context": "posts_reference_context",
                 "excluded": "posts_excluded", "none": "posts_none"}


class ParseStage(Stage):
    """Parse and route every raw forum once; the `quarantined_share` check (blocking) fails above
    `max_quarantined_share` of forums with a problem."""

    name = PARSE
    reads = ("raw_forums",)
    writes = ("parsed", "parsed_quarantine")

    def __init__(self, venue: VenueYear, max_quarantined_share: float = 0.05):
        super().__init__(venue.key)
        self.venue, self.max_quarantined_share = venue, max_quarantined_share

    def count_place(self, place: str, n: int = 1) -> None:
        """A post the routing put in `place` (domain/routing.py post_placements), as its figure."""
        self.stat(PLACE_FIGURES.get(place, "posts_unrouted"), n)

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        venue = self.venue
        out, q_out = outputs.path("parsed"), outputs.path("parsed_quarantine")
        samples: list[dict] = []
        # every count is recorded where it happens (`stat` adds up); zero first, so an empty venue-year
        # shows 0, not nothing
        self.stat("records", 0)
        self.stat(ROW_COUNT, 0)
        self.stat("reviews", 0)
        self.stat("posts", 0)
        self.stat("malformed_forums", 0)
        self.stat("edited_reviews_with_history", 0)
        self.stat("quarantined_forums", 0)
        self.stat("quarantine_codes", {})
        self.stat("exclusion_reasons", {})
        for place in PLACES:
            self.count_place(place, 0)
        with outputs.publish() as pub:  # the table and its quarantine move into place together
            with pub.parquet("parsed", PARSED_SCHEMA) as w, pub.parquet("parsed_quarantine", PARSED_QUARANTINE_SCHEMA) as qw:
                rows: list[dict] = []
                problems: list[dict] = []
                for ordinal, record in enumerate(inputs.raw_forums()):
                    fid = record.get("forum_id")
                    self.stat("records")
                    result, found = forum_problems(record, venue)
                    problems += found
                    self.stat("quarantined_forums", int(bool(found)))
                    for problem in found:
                        self.stat("quarantine_codes", {problem["code"]: 1})
                    if result is None:
                        self.stat("malformed_forums")
                        continue
                    parsed, routing = result
                    row = parsed_row(parsed, routing, venue, ordinal, record.get("fetched_at"),
                                     submission_json(record["note"]))
                    self.stat(ROW_COUNT)
                    self.stat("reviews", row["num_reviews"])
                    self.stat("posts", len(row["posts"]))
                    self.stat("edited_reviews_with_history", len(parsed.review_history))
                    for post in row["posts"]:  # where the routing put each post (domain/routing.py places)
                        self.count_place(post["place"])
                        if post["code"]:  # excluded, counted by its reason's code
                            self.stat("exclusion_reasons", {post["code"]: 1})
                    if len(samples) < 10:
                        samples.append({"forum_id": fid, "title": row["title"], "status": row["status"],
                                        "reviews": row["num_reviews"], "posts": len(row["posts"]),
                                        "decision": row["decision"]})
                    rows.append(row)
                    if len(rows) >= BATCH_ROWS:
                        w.write_table(pa.Table.from_pylist(rows, schema=PARSED_SCHEMA))
                        rows.clear()
                if rows or self.figure(ROW_COUNT) == 0:
                    w.write_table(pa.Table.from_pylist(rows, schema=PARSED_SCHEMA))
                qw.write_table(pa.Table.from_pylist(problems, schema=PARSED_QUARANTINE_SCHEMA))
        codes = self.figure("quarantine_codes", {})
        self.stat("path", out)
        self.stat("quarantine_path", q_out)
        self.stat("preview", Table(samples, ["forum_id", "title", "status", "reviews", "posts", "decision"]))
        share = self.figure("quarantined_forums") / max(self.figure("records"), 1)
        self.check(QUARANTINE_CHECK, share <= self.max_quarantined_share,
                   description=f"{venue.key}: {QUARANTINE_CHECK_DESCRIPTION}",
                   metadata={"partition": venue.key, "share": round(share, 4),
                             "threshold": f"<= {self.max_quarantined_share}",
                             "quarantined": self.figure("quarantined_forums"), "codes": codes,
                             "examples": Table(problems[:10], ["forum_id", "code", "detail"], what="problems")})
