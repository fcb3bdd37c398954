"""The Re^2 subsets (`review`, `rebuttal`) in the record shapes Re^2 publishes
(../shared/design/ecosystem-survey.md §3.1), with our provenance fields and a deterministic
train/test split by forum id.

Pure domain code, no Dagster.
- `review`: one record per paper: paper id, venue, reviews (reviewer id, title, content, initial
  and final scores), meta-review, decision.
- `rebuttal`: one record per (paper, reviewer): `messages` with roles system / user / assistant;
  the reviewer speaks as `assistant`, the authors as `user`; the first user message carries the
  paper placeholder ```<<paper_id>>```; titles are kept in the content ("Title: ...\\n...");
  global responses enter the user side as marked reference context.
- split: `test` iff the first 8 hex digits of sha256(forum_id) / 2^32 < `test_share`, the same
  rule for both subsets, so a paper is never in train of one and test of the other, and never
  in both splits of one subset.

Initial scores: the crawl keeps each review's current content only. A review never modified after
creation (`tmdate` == `tcdate`) has initial == final (`initial_score_source="unmodified"`); for a
modified one the initial scores are null (`"modified: edit history not crawled"`), never guessed.
"""
from __future__ import annotations

import hashlib
import json
from typing import Iterable, Iterator

import pyarrow as pa

from reviewbench_assets.domain.dialogues import Dialogue
from reviewbench_assets.domain.forum import ParsedForum, Post
from reviewbench_assets.domain.schema import REVIEW_SCORE_FIELDS, REVIEW_TEXT_FIELDS

DEFAULT_TEST_SHARE = 0.05
SPLITS = ("train", "test")
SYSTEM_PROMPT = (
    "You are an expert reviewer for a scientific conference. You have read the paper below and "
    "write your review, then discuss it with the authors during the rebuttal: answer their "
    "responses, state which concerns were resolved, and say whether your assessment changes."
)
PAPER_PLACEHOLDER = "```<<{paper_id}>>```"
REFERENCE_HEADER = "[Reference context: global response of the authors to all reviewers]"

_SCORE = pa.struct([("rating", pa.float64()), ("confidence", pa.float64()),
                    ("aspect_score", pa.string())])  # aspect_score: JSON object name -> number
_REVIEW = pa.struct([
    ("reviewer_id", pa.string()), ("review_id", pa.string()), ("review_title", pa.string()),
    ("review_content", pa.string()), ("initial_score", _SCORE), ("final_score", _SCORE),
    ("initial_score_source", pa.string()), ("tcdate", pa.int64()), ("tmdate", pa.int64()),
])
_PROVENANCE_FIELDS = [
    ("revision_rule", pa.string()), ("pdf_sha256", pa.string()), ("ocr_engine", pa.string()),
    ("ocr_model", pa.string()), ("crawled_at", pa.float64()),
]
# What rebuttal_dialogues writes per venue-year (the split is assigned when a config is assembled).
REVIEW_RECORD_SCHEMA = pa.schema([
    ("paper_id", pa.string()), ("conference_year_track", pa.string()), ("conference", pa.string()),
    ("year", pa.int32()), ("track", pa.string()), ("venue_id", pa.string()),
    ("reviews", pa.list_(_REVIEW)), ("metareview", pa.string()), ("decision", pa.string()),
    ("venue", pa.string()),
])
_MESSAGE = pa.struct([("role", pa.string()), ("content", pa.string())])
REBUTTAL_RECORD_SCHEMA = pa.schema([
    ("paper_id", pa.string()), ("conference_year_track", pa.string()), ("conference", pa.string()),
    ("year", pa.int32()), ("track", pa.string()), ("venue_id", pa.string()),
    ("reviewer_id", pa.string()), ("review_id", pa.string()), ("messages", pa.list_(_MESSAGE)),
    ("message_note_ids", pa.list_(pa.list_(pa.string()))), ("merged_by", pa.string()),
    ("turn_merged_by", pa.list_(pa.string())), ("reminders_by", pa.string()),
    ("dropped_reminder_ids", pa.list_(pa.string())),
])
# The published configs: the records + provenance joined from the venue-year provenance rows.
REVIEW_CONFIG_SCHEMA = pa.schema(list(REVIEW_RECORD_SCHEMA) + [pa.field(n, t) for n, t in _PROVENANCE_FIELDS])
REBUTTAL_CONFIG_SCHEMA = pa.schema(list(REBUTTAL_RECORD_SCHEMA) + [pa.field(n, t) for n, t in _PROVENANCE_FIELDS])


def split_of(forum_id: str, test_share: float = DEFAULT_TEST_SHARE) -> str:
    """Deterministic, version-independent train/test assignment of one paper."""
    h = int(hashlib.sha256(forum_id.encode("utf-8")).hexdigest()[:8], 16)
    return "test" if h / 2**32 < test_share else "train"


def conference_year_track(conference: str, year: int | None, track: str) -> str:
    return f"{conference}_{year if year is not None else 'rolling'}_{track or 'main'}"


# ---------------------------------------------------------------------------------------------
# review records


def _score(review: dict) -> dict:
    aspects = {f: review[f] for f in REVIEW_SCORE_FIELDS
               if f not in ("rating", "confidence") and review.get(f) is not None}
    return {"rating": review.get("rating"), "confidence": review.get("confidence"),
            "aspect_score": json.dumps(aspects, sort_keys=True)}


def review_content(review: dict) -> str:
    """The review's text fields of the union form, "Field: text" blocks in form order."""
    skip = {"review_id", "reviewer", "rebuttal"}
    blocks = [f"{f.replace('_', ' ').capitalize()}: {review[f].strip()}"
              for f in REVIEW_TEXT_FIELDS if f not in skip and (review.get(f) or "").strip()]
    blocks += [f"{k.replace('_', ' ').capitalize()}: {v}" for k, v in sorted((review.get("extra_text") or {}).items())
               if isinstance(v, str) and v.strip() and not k.endswith("_text")]
    return "\n\n".join(blocks)


def review_record(p: ParsedForum, conference: str, year: int | None) -> dict:
    reviews = []
    for rev in p.reviews:
        post: Post | None = p.post(rev["review_id"])
        final = _score(rev)
        tc = post.tcdate if post else None
        tm = post.mdate if post else None
        unmodified = tc is not None and (tm is None or tm <= tc)
        reviews.append({
            "reviewer_id": rev["reviewer"], "review_id": rev["review_id"],
            "review_title": post.title if post else "", "review_content": review_content(rev),
            "initial_score": final if unmodified else None, "final_score": final,
            "initial_score_source": "unmodified" if unmodified else "modified: edit history not crawled",
            "tcdate": tc, "tmdate": tm,
        })
    return {
        "paper_id": p.forum_id, "conference_year_track": conference_year_track(conference, year, p.track),
        "conference": conference, "year": year, "track": p.track, "venue_id": p.venue_id,
        "reviews": reviews, "metareview": p.decision_comment, "decision": p.decision, "venue": p.venue,
    }


# ---------------------------------------------------------------------------------------------
# rebuttal records


def _titled(title: str, text: str) -> str:
    return f"Title: {title}\n{text}" if title else text


def rebuttal_record(d: Dialogue, p: ParsedForum, conference: str, year: int | None) -> dict:
    """Turns -> chat messages. Reviewer -> assistant; author -> user; global responses and
    comments by anyone else (area chairs, other reviewers, public) join the user side as marked
    context, so that roles alternate user / assistant after the system message."""
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}]
    note_ids: list[list[str]] = [[]]
    turn_merged_by: list[str] = [""]

    def add(role: str, content: str, ids: list[str], merged_by: str) -> None:
        if messages[-1]["role"] == role and len(messages) > 1:
            messages[-1]["content"] += "\n\n" + content
            note_ids[-1].extend(ids)
            turn_merged_by[-1] = turn_merged_by[-1] or merged_by
        else:
            messages.append({"role": role, "content": content})
            note_ids.append(list(ids))
            turn_merged_by.append(merged_by)

    add("user", f"Please review the following paper.\n\n{PAPER_PLACEHOLDER.format(paper_id=p.forum_id)}",
        [p.forum_id], "")
    for i, t in enumerate(d.turns):
        body = _titled(t.title, t.text)
        if t.kind == "reference_context":
            add("user", f"{REFERENCE_HEADER}\n{body}", t.note_ids, t.merged_by)
        elif i == 0 or t.role == "reviewer":  # the thread's review (and the reviewer's replies)
            add("assistant", body, t.note_ids, t.merged_by)
        elif t.role == "author":
            add("user", body, t.note_ids, t.merged_by)
        else:
            add("user", f"[Comment by {t.role.replace('_', ' ')}]\n{body}", t.note_ids, t.merged_by)
    return {
        "paper_id": p.forum_id, "conference_year_track": conference_year_track(conference, year, p.track),
        "conference": conference, "year": year, "track": p.track, "venue_id": p.venue_id,
        "reviewer_id": d.reviewer, "review_id": d.review_id, "messages": messages,
        "message_note_ids": note_ids, "merged_by": d.merged_by, "turn_merged_by": turn_merged_by,
        "reminders_by": d.reminders_by, "dropped_reminder_ids": list(d.dropped_reminder_ids),
    }


# ---------------------------------------------------------------------------------------------
# writing one venue-year's dialogues and records (three files, each published atomically)


def write_venue_outputs(store, dialogues_path: str, review_path: str, rebuttal_path: str,
                        items: Iterable[tuple[list[dict], dict, list[dict]]], rows: int = 128) -> dict:
    """`items`: per forum (dialogue rows, review record, rebuttal records). Streams: at most
    `rows` records of each kind are buffered."""
    import pyarrow.parquet as pq

    counts = {"dialogues": 0, "review_records": 0, "rebuttal_records": 0}

    def w_rebuttal(t_reb: str) -> None:
        def w_review(t_rev: str) -> None:
            def w_jsonl(t_j: str) -> None:
                with store.fs.open_output_stream(t_j) as fj, \
                        pq.ParquetWriter(t_rev, REVIEW_RECORD_SCHEMA, filesystem=store.fs) as wrev, \
                        pq.ParquetWriter(t_reb, REBUTTAL_RECORD_SCHEMA, filesystem=store.fs) as wreb:
                    revs: list[dict] = []
                    rebs: list[dict] = []
                    for drows, rev, reb in items:
                        for row in drows:
                            fj.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode())
                        counts["dialogues"] += len(drows)
                        revs.append(rev)
                        rebs.extend(reb)
                        if len(revs) >= rows:
                            wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
                            counts["review_records"] += len(revs)
                            revs = []
                        if len(rebs) >= rows:
                            wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
                            counts["rebuttal_records"] += len(rebs)
                            rebs = []
                    wrev.write_table(pa.Table.from_pylist(revs, schema=REVIEW_RECORD_SCHEMA))
                    wreb.write_table(pa.Table.from_pylist(rebs, schema=REBUTTAL_RECORD_SCHEMA))
                    counts["review_records"] += len(revs)
                    counts["rebuttal_records"] += len(rebs)

            store.write_with(dialogues_path, w_jsonl)
        store.write_with(review_path, w_review)
    store.write_with(rebuttal_path, w_rebuttal)
    return counts


# ---------------------------------------------------------------------------------------------
# assembling a config split with DuckDB over Arrow datasets (local or S3 through pyarrow.fs)


def config_split_reader(fs, record_paths: list[str], provenance_paths: list[str], split: str,
                        config_schema: pa.Schema, test_share: float = DEFAULT_TEST_SHARE,
                        batch_rows: int = 256, temp_dir: str | None = None) -> pa.RecordBatchReader:
    """The records of one train/test `split` (`split_of`, a DuckDB Python UDF), joined with their
    provenance, in input order (files in the given order, records in file order), streamed as
    Arrow batches.

    Memory stays flat as the split grows:
    - the record files (the text) reach DuckDB as one streamed `RecordBatchReader`, read one
      Parquet row group at a time through `fs` (local or S3, the same code); neither a pyarrow
      dataset scan (which keeps read-ahead and earlier batches' memory) nor a materialized table;
    - the records are the *probe* side of the hash join and the provenance (no text, a few short
      columns per paper) the build side: DuckDB's `build_side_probe_side` optimizer is disabled,
      since with the split filter its cardinality estimate of the records is ~1 row and it would
      flip the join and build a hash table of every record (all the text of the split);
    - one thread, `preserve_insertion_order`, a memory limit, spilling to `temp_dir`."""
    import tempfile

    import duckdb

    from .splits import iter_parquet_batches

    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    rec_schema = pa.schema([f for f in config_schema if f.name not in {n for n, _ in _PROVENANCE_FIELDS}])
    prov_schema = pa.schema([pa.field("forum_id", pa.string())] + [pa.field(n, t) for n, t in _PROVENANCE_FIELDS])
    con = duckdb.connect(config={"threads": 1, "memory_limit": "256MB", "preserve_insertion_order": True,
                                 "temp_directory": temp_dir or tempfile.gettempdir()})
    try:
        con.execute("SET disabled_optimizers = 'build_side_probe_side'")
        con.create_function("re2_split", lambda fid: split_of(fid, test_share), ["VARCHAR"], "VARCHAR",
                            side_effects=False)

        def record_batches_() -> Iterator[pa.RecordBatch]:
            for path in record_paths:
                for b in iter_parquet_batches(fs, path, batch_rows, columns=rec_schema.names):
                    yield b if b.schema.equals(rec_schema) else pa.Table.from_batches([b]).cast(
                        rec_schema).combine_chunks().to_batches()[0]

        records = pa.RecordBatchReader.from_batches(rec_schema, record_batches_())
        # The build side: a few short columns per paper (~100 bytes), the only thing held.
        prov = pa.concat_tables(
            [prov_schema.empty_table()]
            + [pa.Table.from_batches([b]).cast(prov_schema) for path in provenance_paths
               for b in iter_parquet_batches(fs, path, 64 * 1024, columns=prov_schema.names)]).combine_chunks()
        con.register("records", records)
        con.register("prov", prov)
        cols = ", ".join(f"r.{f.name}" for f in rec_schema)
        pcols = ", ".join(f"p.{n}" for n, _ in _PROVENANCE_FIELDS)
        # No ORDER BY: a sort of the text-heavy records does not spill reliably (duckdb ran out of
        # its 256 MB at 20k papers); one thread + preserve_insertion_order + records on the probe
        # side keep the input order (venue-years in the given order, forums in crawl order).
        sql = (f"SELECT {cols}, {pcols} FROM records r LEFT JOIN prov p ON p.forum_id = r.paper_id "
               f"WHERE re2_split(r.paper_id) = ?")
        rel = con.sql(sql, params=[split])
        # a relation streams (duckdb >= 2: to_arrow_reader; 1.x: record_batch), batch by batch
        result = (rel.to_arrow_reader(batch_rows) if hasattr(rel, "to_arrow_reader")
                  else rel.record_batch(batch_rows))
    except BaseException:
        con.close()
        raise

    def batches() -> Iterator[pa.RecordBatch]:
        try:
            for b in result:
                if b.num_rows:
                    yield pa.Table.from_batches([b]).cast(config_schema).combine_chunks().to_batches()[0]
        finally:
            con.close()

    return pa.RecordBatchReader.from_batches(config_schema, batches())
