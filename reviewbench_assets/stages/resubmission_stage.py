"""The resubmissions stage (`resubmissions`, corpus-level, issue 37 items 2-3): every venue-year's
submissions linked into chains of versions of one paper, by the domain rule
(domain/resubmissions.py `link_resubmissions`), written as one publication: the links with their
evidence and confidence (`resubmissions/links.parquet`), the chains with the decision at each step
(`resubmissions/chains.parquet`, the corpus's `resubmissions` config, which the conference splits read
to put every version of a paper on one side of the Re^2 train/test), and the forums left alone with
their reason.

A venue-year that changes recomputes only the links it touches. Each venue-year's records (what the
rule reads of its parsed forums and paper text) are kept (`resubmissions/records/<pk>.parquet`) with
its inputs' fingerprint and the records' digest (`resubmissions/state.json`): a venue-year whose
inputs are unchanged is read from its records, not from its parsed table; one whose records changed
(or that arrived) is "touching", and only pairs with a record in it are scored (`touching=`), the
links between the other venue-years kept as they were. A venue-year gone drops its links. A change
of the rule itself (its module's source) scores everything again. Dagster-free."""
from __future__ import annotations

import hashlib
import inspect
import json
from collections import Counter
from collections.abc import Callable

import pyarrow as pa

from partitions.catalogue import catalogue
from resources.store import dumps_json
from reviewbench_assets.domain import resubmissions as rule
from reviewbench_assets.domain.resubmission_rows import (
    CHAIN_SCHEMA,
    LEFT_ALONE_SCHEMA,
    LINK_SCHEMA,
    RECORD_SCHEMA,
    accepted_of,
    chain_rows,
    input_issues,
    link_of,
    link_row,
    record_of,
    record_row,
    submission_record,
)
from reviewbench_assets.domain.resubmissions import Submission, chains, link_resubmissions
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.stages.figures import RESUBMISSIONS, ROW_COUNT
from reviewbench_assets.stages.stage import Stage

STATE_VERSION = 1
# the rule's own source: stored links were made by it, a change of it scores every pair again
RULE_DIGEST = hashlib.sha256(inspect.getsource(rule).encode()).hexdigest()[:16]


def _digest(rows: list[dict]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()


class ResubmissionsStage(Stage):
    """Links the versions of one paper across every venue-year of the catalogue (`keys`: those to read;
    None: all), costing what changed since the last run."""

    name = RESUBMISSIONS
    reads = ("submission_texts",)
    writes = ("resubmission_records", "RESUBMISSION_STATE", "RESUBMISSION_LINKS", "RESUBMISSION_CHAINS",
              "RESUBMISSION_LEFT_ALONE")

    def __init__(self, keys: list[str] | None = None, log: Callable[[str], None] = lambda _m: None):
        super().__init__(None)
        self.keys, self.log = keys, log

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        keys = self.keys if self.keys is not None else [v.key for v in catalogue().venues]
        old = outputs.read_json("RESUBMISSION_STATE") or {}
        same_rule = old.get("version") == STATE_VERSION and old.get("rule") == RULE_DIGEST
        before = old.get("venue_years", {}) if same_rule else {}
        state, records, touched, reread = {}, {}, [], {}
        for pk in keys:
            kept = before.get(pk)
            fresh = self._fresh(inputs, outputs, pk, kept)
            if fresh is None:
                continue
            fingerprint, rows, issues = fresh
            digest = kept["digest"] if issues is None else _digest(rows)
            if kept is None or digest != kept["digest"]:
                touched.append(pk)
            if issues is not None:  # read from its parsed table again: its records are written again
                reread[pk] = rows
            state[pk] = {"fingerprint": fingerprint, "digest": digest, "records": len(rows),
                         "input_issues": issues if issues is not None else kept["input_issues"]}
            records.update({r["id"]: record_of(r) for r in rows})
        removed = sorted(set(before) - set(state))
        mode = "full" if not same_rule or not outputs.exists("RESUBMISSION_LINKS") else (
            "incremental" if touched or removed or reread else "unchanged")
        if mode == "unchanged":
            links, left = self._stored(outputs)
        else:
            links, left = self._link(outputs, records, mode, touched, removed)
        found = chains((r for r, _ in records.values()), [link_of(l) for l in links])
        if mode != "unchanged":
            self._publish(outputs, state, reread, links, left, chain_rows(found, links, records))
        issues = Counter()
        for s in state.values():
            issues.update(s["input_issues"])
        self.stat(ROW_COUNT, len(links))
        self.stat("submissions", len(records))
        self.stat("chains", len(found))
        self.stat("links_by_kind", dict(sorted(Counter(l["kind"] for l in links).items())))
        self.stat("left_alone", dict(sorted(Counter(r["reason"] for r in left).items())))
        self.stat("input_issues", dict(sorted(issues.items())))
        self.stat("linking_mode", mode)
        self.stat("venue_years_relinked", sorted(state) if mode == "full" else touched)
        self.stat("venue_years_removed", removed)
        self.log(f"resubmissions: {mode}, {len(records)} submissions, {len(links)} links, {len(found)} chains")

    def _fresh(self, inputs: Inputs, outputs: Outputs, pk: str,
               kept: dict | None) -> tuple[dict, list[dict], dict | None] | None:
        """(fingerprint, records, input issues per reason code: None when the stored records were
        reused), or None when the venue-year has no parsed forums."""
        got = inputs.of(pk).submission_texts()
        if got is None:
            return None
        with got:
            if kept is not None and kept["fingerprint"] == got.fingerprint and outputs.exists("resubmission_records", pk):
                return got.fingerprint, outputs.read_parquet("resubmission_records", pk).to_pylist(), None  # unchanged
            issues: Counter = Counter()
            out = []
            for row in got:
                rec = submission_record(pk, row, row["markdown"])
                issues.update(input_issues(rec, row["has_pdf"]))
                out.append(record_row(rec, accepted_of(rec.decision, row.get("venue"))))
            return got.fingerprint, out, dict(sorted(issues.items()))

    def _stored(self, outputs: Outputs) -> tuple[list[dict], list[dict]]:
        return (outputs.read_parquet("RESUBMISSION_LINKS").to_pylist(),
                outputs.read_parquet("RESUBMISSION_LEFT_ALONE").to_pylist())

    def _link(self, outputs: Outputs, records: dict[str, tuple[Submission, bool]], mode: str, touched: list[str],
              removed: list[str]) -> tuple[list[dict], list[dict]]:
        """Every link and left-alone record: those among unchanged venue-years kept, the rest scored."""
        gone = set(touched) | set(removed)
        if mode == "full":
            kept_links, kept_left = [], []
        else:
            links, left = self._stored(outputs)
            kept_links = [l for l in links if not {l["earlier_venue_year"], l["later_venue_year"]} & gone]
            kept_left = [r for r in left if r["venue_year"] not in gone]
        result = link_resubmissions((r for r, _ in records.values()), touching=None if mode == "full" else touched)
        venue_year = {i: r.venue_year for i, (r, _) in records.items()}
        links = kept_links + [link_row(l, venue_year) for l in result.links]
        left = kept_left + [{"forum_id": x.id, "venue_year": venue_year[x.id], "reason": x.reason}
                            for x in result.left_alone]
        return (sorted(links, key=lambda l: (l["earlier"], l["later"])),
                sorted(left, key=lambda r: (r["venue_year"], r["forum_id"])))

    def _publish(self, outputs: Outputs, state: dict, changed_records: dict[str, list[dict]], links: list[dict],
                 left: list[dict], chain_table: list[dict]) -> None:
        """Records of the venue-years read again, the links, chains, left-alone and the state: one
        publication (all or none), the state last written so a kill never leaves it ahead of the links."""
        with outputs.publish() as pub:
            for pk, rows in changed_records.items():
                _write(pub, rows, RECORD_SCHEMA, "resubmission_records", pk)
            _write(pub, links, LINK_SCHEMA, "RESUBMISSION_LINKS")
            _write(pub, chain_table, CHAIN_SCHEMA, "RESUBMISSION_CHAINS")
            _write(pub, left, LEFT_ALONE_SCHEMA, "RESUBMISSION_LEFT_ALONE")
            pub.put("RESUBMISSION_STATE", dumps_json({"version": STATE_VERSION, "rule": RULE_DIGEST, "venue_years": state}))


def _write(pub: Staging, rows: list[dict], schema: pa.Schema, name: str, *args: str) -> None:
    with pub.parquet(name, schema, *args) as w:
        w.write_table(pa.Table.from_pylist(rows, schema=schema))
