"""The publish sites of the stage code, found from the code itself (issue 29.4): every call in
`reviewbench_assets/` of the storage API that puts, moves or deletes published data (a publication
opened or staged into, a file written through the store, a folder deleted, a lock taken around a
publish), by its module, enclosing function and line span.

The crash-point suite (tests/faults/crash_trials.py) records, for each filesystem call of its run,
the stage code's frames that made it; a site is DRIVEN when some crash point's frames fall on its
span. A site the suite's operation never reaches must be named in `NOT_DRIVEN` with the reason, so a
new publish path cannot slip in untried: `undriven()` lists the sites that are neither."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.faults.crash_points import PROJECT, STAGE_CODE

# Store / Publication / filesystem calls that change what is published
WRITE_CALLS = {"publish", "target", "remove_after", "write_json", "write_bytes", "write_jsonl", "write_parquet",
               "write_with", "put_pdf", "delete_dir", "delete_file", "move", "copy_file", "write_verdict",
               "record_checks"}

# "<module stem>.<function>": why the crash-point operation does not reach it (kept short, checked
# by the test: an entry that no longer names a site is an error too)
NOT_DRIVEN = {
    "dagster_step._share_pace.share": "a learnt rate-limit pace: one single-file write, only after a 429",
    "dagster_step.openreview_slot": "the step's recent OpenReview request times for the next step's limiter "
                                    "(pacing state, one single-file write; a torn one reads as a miss): the "
                                    "operation's fake API sends nothing through a rate limiter",
    "stage_io.Staging.remove_in": "a corpus file removed at the card's commit (the resubmissions config once no "
                                  "chain remains): the operation's corpus never held one to remove",
    "corpus_writer._publication": "a split writer without a publication of its caller's (tests and tools; the split "
                                  "stage passes one)",
    "attempt.AnswerCache.put": "an OpenReview answer kept for a killed run's re-run, one file written whole; the "
                             "operation's fake API answers in process, without the HTTP client that keeps them "
                             "(kills around it: tests/integrity/test_rerun_requests.py)",
    "attempt.open_attempt": "its resume branch (an unfinished run's attempt taken over) needs a run known to have "
                            "failed: the operation's runs are unknown to each other, so each starts a new attempt",
    "pdf_files.PdfFiles.sweep_staging_records": "a staging record left without its body: only after a kill between a PDF's "
                                       "move into the store and the record's deletion (its re-run is a trial of "
                                       "test_crash_points)",
}


# calls whose filesystem effect comes later, elsewhere in their function (the staged file is opened
# by the writer; stale files go at the commit): judged by their function's span, the others by their own
DEFERRED = {"target", "remove_after"}


@dataclass(frozen=True)
class Site:
    path: str  # relative to the project
    function: str  # "<module stem>.<qualified function>"
    call: str
    first: int
    last: int
    span: tuple[int, int]  # the lines a crash point's frame must fall on for the site to be driven

    def covers(self, frame: tuple[str, int]) -> bool:
        return frame[0] == self.path and self.span[0] <= frame[1] <= self.span[1]


class _Finder(ast.NodeVisitor):
    def __init__(self, rel: str):
        self.rel, self.stack, self.sites = rel, [], []

    def _scope(self, node):
        self.stack.append(node)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_Call(self, node: ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in WRITE_CALLS and self.stack:
            fn = f"{Path(self.rel).stem}.{'.'.join(n.name for n in self.stack)}"
            first, last = node.lineno, node.end_lineno or node.lineno
            span = (self.stack[-1].lineno, self.stack[-1].end_lineno) if name in DEFERRED else (first, last)
            self.sites.append(Site(self.rel, fn, name, first, last, span))
        self.generic_visit(node)


def publish_sites() -> list[Site]:
    out = []
    for path in sorted(Path(STAGE_CODE).rglob("*.py")):
        rel = str(path.relative_to(PROJECT))
        finder = _Finder(rel)
        finder.visit(ast.parse(path.read_text(), filename=rel))
        out += finder.sites
    return out


def driven(sites: list[Site], frames: list[tuple]) -> set[Site]:
    seen = {f for point in frames for f in point}
    return {s for s in sites if any(s.covers(f) for f in seen)}


def undriven(sites: list[Site], frames: list[tuple]) -> list[str]:
    """Sites neither driven by the crash points nor named in NOT_DRIVEN, and NOT_DRIVEN entries that
    name no site any more."""
    hit = driven(sites, frames)
    out = [f"{s.function} ({s.path}:{s.first} {s.call})" for s in sites
           if s not in hit and s.function not in NOT_DRIVEN]
    named = {s.function for s in sites}
    out += [f"NOT_DRIVEN names {f}, which has no publish site" for f in NOT_DRIVEN if f not in named]
    out += [f"NOT_DRIVEN names {f}, whose every site is driven now" for f in NOT_DRIVEN
            if f in named and all(s in hit for s in sites if s.function == f)]
    return out
