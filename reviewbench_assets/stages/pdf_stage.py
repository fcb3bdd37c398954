"""The `initial_submission_pdfs` stage: per forum of the venue-year, the initial submission's
revision chosen and its PDF stored (`stages/pdf_choice.py` `choose_initial_pdfs`); its figures
(this run's work and the partition's totals, a preview of the chosen revisions) and the deadline
check (a warning: a disagreement is reported, the cutoff rule then says what was used)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from resources.openreview_api import OpenReviewApi
from resources.store import Store
from reviewbench_assets.stages.pdf_choice import choose_initial_pdfs
from reviewbench_assets.stages.stage import DEADLINE, PDFS, Progress, Stage, Table, iso_utc

DEADLINE_CHECK = DEADLINE
PREVIEW_COLUMNS = ["forum_id", "rule", "reason", "revision_id", "pdf_pages", "error"]


def _per_forum(records: list[dict], field: str) -> float | None:
    """Mean OpenReview requests per forum for `field`, over the forums this run (re)did."""
    vals = [r[field] for r in records if r.get(field) is not None]
    return round(sum(vals) / len(vals), 3) if vals else None


class PdfStage(Stage):
    """`scrape(forum_ids, on_done, notes)` reads revision pages in a browser (None: the API recipe
    only); the options are `SubmissionPdfConfig`'s (reviewbench_assets/assets.py)."""

    name = PDFS

    def __init__(self, venue, api: OpenReviewApi,
                 scrape: Callable[[list[str], Callable[[str], None], dict], dict] | None, *,
                 cross_check: bool = False, allow_earliest_public: bool = True, max_workers: int = 8,
                 batch_attachments: bool = True, read_every_history: bool = False,
                 log: Callable[[str], None] = lambda _m: None, warn: Callable[[str], None] = lambda _m: None,
                 progress: Callable[[str, int], Progress] | None = None):
        super().__init__(venue.key)
        self.venue, self.api, self.scrape, self.log, self.warn, self.progress = venue, api, scrape, log, warn, progress
        self.cross_check, self.allow_earliest_public, self.max_workers = cross_check, allow_earliest_public, max_workers
        self.batch_attachments, self.read_every_history = batch_attachments, read_every_history

    def run(self, store: Store) -> None:
        choose_initial_pdfs(self, store)

    def record_forums(self, records: list[dict], redone: set[str]) -> None:
        """Every forum's record (crawl order); `redone`: the forums this run (re)did, the others resumed."""
        this_run = [x for x in records if x["forum_id"] in redone]
        fresh = [x for x in records if x.get("revision_requests") is not None]
        errors = Counter((x.get("error") or "").split(":")[0] or None for x in records if x.get("error"))
        self.stat("redone_forums", sorted(redone)[:50])
        self.stat("pdf_fetch_this_run", dict(Counter(x.get("pdf_fetch") or "none" for x in this_run)))
        # where each choice came from: browser page, API recipe, or the note alone (history not read)
        self.stat("revision_sources_this_run", dict(Counter(x.get("revision_source") or "none" for x in this_run)))
        self.stat("browser_failures", sum(1 for x in this_run if x.get("revision_source") == "api"
                                          and self.scrape is not None))
        # every OpenReview request per forum: the revision page's own API calls (or the API recipe
        # when the page failed) and the PDF downloads
        self.stat("revision_requests_per_forum", _per_forum(fresh, "revision_requests"))
        self.stat("pdf_requests_per_forum", _per_forum(fresh, "pdf_requests"))
        # ... and the partition's totals (this run's and resumed forums)
        self.stat("rules", dict(Counter(x["rule"] for x in records)))
        self.stat("pdfs_stored", sum(1 for x in records if x.get("pdf_sha256")))
        self.stat("errors", {k: v for k, v in errors.items() if k})
        self.stat("pdf_fetch_total", dict(Counter(x.get("pdf_fetch") or "none" for x in records)))
        self.stat("cross_check_disagreements",
                  sum(1 for x in records if (x.get("cross_check") or "").startswith("disagree")))
        self.stat("chosen_revisions", Table(records, PREVIEW_COLUMNS, limit=20, what="forums"))

    def record_deadline(self, check: dict) -> None:
        """The catalogue's deadline against the submission invitation's (stages/deadlines.py)."""
        venue = self.venue
        self.stat("deadline_announced", venue.deadline.announced if venue.deadline else "rolling")
        self.stat("deadline_announced_utc", venue.submission_deadline.isoformat() if venue.deadline else "rolling")
        self.stat("deadline_source", venue.deadline.source if venue.deadline else "")
        self.stat("deadline_confidence", venue.deadline.confidence if venue.deadline else "")
        self.stat("deadline_invitations", check["invitations"])
        self.stat("deadline_check", check["status"])
        self.stat("deadline_disagreement_h", check.get("disagreement_h"))
        self.stat("cutoff", iso_utc(check.get("cutoff_ms")) or "none (rolling venue)")
        self.stat("cutoff_rule", check.get("cutoff_rule"))
        self.check(DEADLINE_CHECK, check["status"] in ("agree", "agree_abstract", "rolling"), severity="WARN",
                   metadata={"status": check["status"], "disagreement_h": check.get("disagreement_h"),
                             "problems": "; ".join(check.get("problems") or []) or "none",
                             "cutoff_rule": check.get("cutoff_rule")})
