"""The resubmissions data around the linking rule (issue 37 items 2-3): the plain record the rule reads
from a parsed forum (`submission_record`), the rows the `resubmissions` stage writes and the corpus
publishes as its `resubmissions` config (`chain_rows`, one row per chain, `link_rows`), and the card's
figures computed back from those rows (`chain_figures`). The rule itself is domain/resubmissions.py.

Bad input is never a crash: a forum with no abstract, a title of one word or a PDF without text still
gives a record (the rule links it on what it has, or leaves it alone with a reason); what was missing
is counted by `input_issues`."""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping

import pyarrow as pa

from .corpus_stats import is_accepted
from .resubmissions import Chain, Link, Submission, chain_split, forum_in_test, has_public_author

# A journal's submission form field naming the submission this one revises: openreview-py e25fd7d,
# openreview/journal/invitation.py:987 `f'previous_{short_name}_submission_url'` (TMLR:
# "previous_TMLR_submission_url"; regex `https://openreview.net/forum?id=.*`, optional, "If a version
# of this submission was previously rejected by TMLR, give the OpenReview link to the original ...
# submission"); journal/assignment.py:192 reads the forum id back from it the same way. Every journal
# the library runs names it after its own short name, so the field is matched by that shape.
TMLR_PREVIOUS = "previous_TMLR_submission_url"
_PREVIOUS_FIELD = re.compile(r"^previous_[A-Za-z0-9_\-]+_submission_url$")
_FORUM_ID = re.compile(r"[?&]id=([A-Za-z0-9_\-]+)")
# How much of a paper's text a record keeps (the rule compares the opening of the text; a record of the
# whole paper would hold tens of KB per paper in memory and in the stage's per-venue-year files).
FULL_TEXT_CHARS = 30_000
# the decision a step shows when the paper left the process without one
STATUS_DECISION = {"withdrawn": "Withdrawn", "desk_rejected": "Desk Rejected"}


def _value(v):
    return v.get("value") if isinstance(v, dict) else v  # API v2 wraps content values in {"value": ...}


def explicit_previous(note: Mapping) -> str | None:
    """The earlier forum id a submission note names (TMLR's `previous_TMLR_submission_url`, any
    journal's `previous_<short name>_submission_url`), or None."""
    content = note.get("content") or {}
    for key in [TMLR_PREVIOUS, *sorted(k for k in content if k != TMLR_PREVIOUS and _PREVIOUS_FIELD.match(k))]:
        url = _value(content.get(key))
        m = _FORUM_ID.search(url) if isinstance(url, str) else None
        if m:
            return m.group(1)
    return None


def submission_time(note: Mapping) -> int | None:
    """The submission's creation time (ms), what orders the versions of a paper."""
    for key in ("cdate", "tcdate", "odate", "pdate"):
        if isinstance(note.get(key), int | float) and note[key] > 0:
            return int(note[key])
    return None


def step_decision(decision: str | None, status: str | None) -> str | None:
    return decision or STATUS_DECISION.get(status or "") or None


def submission_record(venue_year: str, row: Mapping, markdown: str | None) -> Submission:
    """A parsed forum (the parsed table's `forum_id, title, abstract, authors, decision, status,
    submission_json`) and its paper's text (None or "": none) as the linking rule's record."""
    try:
        note = json.loads(row.get("submission_json") or "{}")
    except ValueError:
        note = {}
    note = note if isinstance(note, dict) else {}
    return Submission(id=row["forum_id"], venue_year=venue_year, time=submission_time(note),
                      title=row.get("title") or "", abstract=row.get("abstract") or "",
                      authors=tuple(a for a in row.get("authors") or () if a),
                      decision=step_decision(row.get("decision"), row.get("status")),
                      full_text=(markdown or "")[:FULL_TEXT_CHARS] or None,
                      resubmission_of=explicit_previous(note))


def input_issues(rec: Submission, has_pdf: bool) -> list[str]:
    """What a record lacks, as reason codes (counted by the stage): `no_abstract`, `short_title`
    (under three words), `no_public_authors` (none listed, or only the placeholder of hidden authors:
    the rule then neither confirms nor refutes by authors), `pdf_without_text` (a PDF was chosen and
    read, no text came out)."""
    out = []
    if not rec.abstract.strip():
        out.append("no_abstract")
    if len(re.findall(r"\w+", rec.title)) < 3:
        out.append("short_title")
    if not has_public_author(rec.authors):
        out.append("no_public_authors")
    if has_pdf and not rec.full_text:
        out.append("pdf_without_text")
    return out


# ---- the stage's rows -------------------------------------------------------------------------------------

RECORD_SCHEMA = pa.schema([("id", pa.string()), ("venue_year", pa.string()), ("time", pa.int64()),
                           ("title", pa.string()), ("abstract", pa.string()), ("authors", pa.list_(pa.string())),
                           ("decision", pa.string()), ("full_text", pa.string()), ("resubmission_of", pa.string()),
                           ("accepted", pa.bool_())])
SIGNALS = ("title", "abstract", "abstract_words", "abstract_distinct", "authors", "full_text")
LINK_SCHEMA = pa.schema([("earlier", pa.string()), ("later", pa.string()), ("earlier_venue_year", pa.string()),
                         ("later_venue_year", pa.string()), ("kind", pa.string()), ("evidence", pa.string()),
                         ("confidence", pa.float64()), *[(f"{s}_score", pa.float64()) for s in SIGNALS]])
STEP = pa.struct([("forum_id", pa.string()), ("venue_year", pa.string()), ("submitted_ms", pa.int64()),
                  ("title", pa.string()), ("decision", pa.string()), ("accepted", pa.bool_())])
# The `resubmissions` config: one row per chain (the versions of one paper), its steps in time order.
CHAIN_SCHEMA = pa.schema([("chain_id", pa.string()), ("num_versions", pa.int32()),
                          ("venue_years", pa.list_(pa.string())), ("steps", pa.list_(STEP)),
                          ("links", pa.list_(pa.struct([f for f in LINK_SCHEMA if "venue_year" not in f.name]))),
                          ("has_dual_submission", pa.bool_()), ("min_confidence", pa.float64())])
LEFT_ALONE_SCHEMA = pa.schema([("forum_id", pa.string()), ("venue_year", pa.string()), ("reason", pa.string())])


def record_row(rec: Submission, accepted: bool) -> dict:
    return {**rec.model_dump(), "authors": list(rec.authors), "accepted": accepted}


def record_of(row: Mapping) -> tuple[Submission, bool]:
    return Submission(**{k: row[k] for k in Submission.model_fields if k != "authors"},
                      authors=tuple(row["authors"] or ())), bool(row["accepted"])


def link_row(link: Link, venue_year: Mapping[str, str]) -> dict:
    return {"earlier": link.earlier, "later": link.later, "earlier_venue_year": venue_year[link.earlier],
            "later_venue_year": venue_year[link.later], "kind": link.kind, "evidence": link.evidence,
            "confidence": link.confidence, **{f"{s}_score": link.signals.get(s) for s in SIGNALS}}


def link_of(row: Mapping) -> Link:
    return Link(earlier=row["earlier"], later=row["later"], kind=row["kind"], evidence=row["evidence"],
                confidence=row["confidence"],
                signals={s: row[f"{s}_score"] for s in SIGNALS if row.get(f"{s}_score") is not None})


def chain_rows(found: Iterable[Chain], links: Iterable[dict], records: Mapping[str, tuple[Submission, bool]]) -> list[dict]:
    """The config's rows: each chain with its steps (time order, decision at each) and the links
    (evidence, scores, confidence) between its versions."""
    of_chain: dict[str, list[dict]] = {}
    member = {s.id: c.chain_id for c in found for s in c.steps}
    for row in links:
        of_chain.setdefault(member[row["earlier"]], []).append(
            {k: v for k, v in row.items() if "venue_year" not in k})
    out = []
    for c in found:
        mine = of_chain.get(c.chain_id, [])
        out.append({"chain_id": c.chain_id, "num_versions": len(c.steps),
                    "venue_years": list(dict.fromkeys(s.venue_year for s in c.steps)),
                    "steps": [{"forum_id": s.id, "venue_year": s.venue_year, "submitted_ms": s.time,
                               "title": records[s.id][0].title, "decision": s.decision,
                               "accepted": records[s.id][1]} for s in c.steps],
                    "links": mine, "has_dual_submission": any(l["kind"] == "dual_submission" for l in mine),
                    "min_confidence": min((l["confidence"] for l in mine), default=None)})
    return out


# ---- the Re^2 train/test per chain ------------------------------------------------------------------------

def chain_sides(chain_steps: Iterable[Iterable[Mapping]], test_share: float) -> dict[str, dict[str, str]]:
    """venue-year -> {forum id: side} for every version whose chain's side (`chain_split`: test when
    any version draws test) differs from its own draw, from the chains' `steps` (the config's rows).
    A forum in no chain, or whose chain agrees with it, is not listed: it keeps its own draw."""
    out: dict[str, dict[str, str]] = {}
    for steps in chain_steps:
        steps = list(steps)
        side = chain_split((s["forum_id"] for s in steps), test_share)
        for s in steps:
            if side != ("test" if forum_in_test(s["forum_id"], test_share) else "train"):
                out.setdefault(s["venue_year"], {})[s["forum_id"]] = side
    return out


# ---- the card's figures, from the config's rows -----------------------------------------------------------

def _conference(venue_year: str) -> str:
    return venue_year.split("-", 1)[0]


def chain_figures(rows: Iterable[Mapping]) -> dict:
    """Chains, versions, venue pairs (conference of a version -> conference of the next one) and how
    often a rejected (or withdrawn) version was followed by an accepted one, from the config's rows."""
    rows = list(rows)
    pairs: Counter = Counter()
    rejected = withdrawn = rejected_then_accepted = withdrawn_then_accepted = 0
    for r in rows:
        steps = r["steps"]
        for a, b in zip(steps, steps[1:], strict=False):
            if a["venue_year"] != b["venue_year"]:
                pairs[f"{_conference(a['venue_year'])} → {_conference(b['venue_year'])}"] += 1
        later_accepted = [any(s["accepted"] for s in steps[i + 1:]) for i in range(len(steps))]
        for kind in ("reject", "withdraw"):
            hits = [i for i, s in enumerate(steps[:-1]) if kind in (s["decision"] or "").lower()
                    and not s["accepted"]]
            if hits:  # a chain counts once: its first such version, and whether one after it was accepted
                then = later_accepted[hits[0]]
                if kind == "reject":
                    rejected, rejected_then_accepted = rejected + 1, rejected_then_accepted + then
                else:
                    withdrawn, withdrawn_then_accepted = withdrawn + 1, withdrawn_then_accepted + then
    return {"chains": len(rows), "versions": sum(r["num_versions"] for r in rows),
            "dual_submission_chains": sum(bool(r["has_dual_submission"]) for r in rows),
            "venue_pairs": dict(sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))),
            "rejected_then_resubmitted": rejected, "rejected_then_accepted": rejected_then_accepted,
            "withdrawn_then_resubmitted": withdrawn, "withdrawn_then_accepted": withdrawn_then_accepted}


def accepted_of(decision: str | None, venue: str | None) -> bool:
    return is_accepted(decision, venue)


# ---- the corpus's `resubmissions` config ------------------------------------------------------------------

CONFIG = "resubmissions"
CONFIG_SPLIT = "chains"  # one split: every chain of the corpus
CONFIG_FILE = f"{CONFIG}/{CONFIG_SPLIT}.parquet"  # corpus-relative


def with_config(header: dict) -> dict:
    """A card's front matter with the `resubmissions` config (`load_dataset(dir, "resubmissions")`)."""
    configs = [c for c in header.get("configs") or [] if c.get("config_name") != CONFIG]
    configs.append({"config_name": CONFIG, "data_files": [{"split": CONFIG_SPLIT, "path": [CONFIG_FILE]}]})
    return {**header, "configs": sorted(configs, key=lambda c: (c["config_name"] != "default", c["config_name"]))}


def _share(n: int, of: int) -> str:
    return f"{n:,} of {of:,} ({100 * n / of:.1f}%)" if of else "none"


def card_section(fig: dict) -> str:
    """The card's markdown on the `resubmissions` config, from `chain_figures` of its rows."""
    lines = ["", "## Resubmissions: versions of one paper across venues", "",
             "The `resubmissions` config (`load_dataset(dir, \"resubmissions\")`, split `chains`) has one row per "
             "chain: the submissions that are versions of one paper, in time order (`steps`: forum, venue-year, "
             "submission time, title, decision, accepted), and the links between them (`links`: the rule that "
             "linked them, the title / abstract (3-grams, content words, 3-grams not stock in the corpus) / authors / full-text scores, a confidence). Versions are linked "
             "where OpenReview states it (TMLR's `previous_TMLR_submission_url`), otherwise on the title, "
             "abstract, public authors and text (MinHash/LSH candidates, never all pairs); near copies inside "
             "one venue-year are flagged `dual_submission`.", "",
             f"- chains: {fig['chains']:,} ({fig['versions']:,} submissions; {fig['dual_submission_chains']:,} with a "
             "dual submission)",
             f"- a rejected version followed by an accepted one: {_share(fig['rejected_then_accepted'], fig['rejected_then_resubmitted'])} "
             "chains with a rejected version submitted again",
             f"- a withdrawn version followed by an accepted one: {_share(fig['withdrawn_then_accepted'], fig['withdrawn_then_resubmitted'])} "
             "chains with a withdrawn version submitted again", ""]
    if fig["venue_pairs"]:
        lines += ["| from → to (next version) | versions |", "|---|---:|"]
        lines += [f"| {pair} | {n:,} |" for pair, n in fig["venue_pairs"].items()]
        lines.append("")
    lines += ["In the Re^2 `review` and `rebuttal` configs every version of a paper is on one side: a chain is in "
              "`test` when any of its versions draws test by its own forum id (sha256), so a chain that joins "
              "two earlier chains is in `test` when either of them was, and a paper once in `test` stays there "
              "as venue-years arrive (a later version can only bring its earlier ones into `test`)."]
    return "\n".join(lines) + "\n"
