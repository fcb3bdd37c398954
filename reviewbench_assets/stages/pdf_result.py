"""The `initial_submission_pdfs` stage's result in the one stage shape (stages/result.py): what it
wrote, this run's work and the partition's totals, a preview of the chosen revisions, and the
deadline check (a warning: a disagreement is reported, the cutoff rule then says what was used)."""
from __future__ import annotations

from collections import Counter

from reviewbench_assets.stages.pdf_choice import PdfStageResult
from reviewbench_assets.stages.result import CheckOutcome, StageResult, Table, iso_utc

DEADLINE_CHECK = "deadline_agrees_with_invitation"
PREVIEW_COLUMNS = ["forum_id", "rule", "reason", "revision_id", "pdf_pages", "error"]


def _per_forum(records: list[dict], field: str) -> float | None:
    """Mean OpenReview requests per forum for `field`, over the forums this run (re)did."""
    vals = [r[field] for r in records if r.get(field) is not None]
    return round(sum(vals) / len(vals), 3) if vals else None


def pdf_stage_result(r: PdfStageResult, venue, used_browser: bool) -> StageResult:
    records, check = r.records, r.deadline_check
    fresh = [x for x in records if x.get("revision_requests") is not None]
    this_run = [x for x in records if x["forum_id"] in r.redone]
    retryable = sum(1 for x in records if x.get("error") and not x.get("error_final"))
    errors = Counter((x.get("error") or "").split(":")[0] or None for x in records if x.get("error"))
    counts = {
        # this run's work ...
        "forums_done_this_run": r.todo, "forums_resumed": r.resumed, "retryable_errors": retryable,
        "pdf_fetch_this_run": dict(Counter(x.get("pdf_fetch") or "none" for x in this_run)),
        "forums_per_s": round(r.todo / max(r.elapsed_s, 1e-6), 2),
        "browser_s": round(r.browser_s, 2),
        # where each choice came from: browser page, API recipe, or the note alone (history not read)
        "revision_sources_this_run": dict(Counter(x.get("revision_source") or "none" for x in this_run)),
        "browser_failures": sum(1 for x in this_run if x.get("revision_source") == "api" and used_browser),
        # every OpenReview request per forum this run: the revision page's own API calls (or the
        # API recipe when the page failed) and the PDF downloads
        "revision_requests_per_forum": _per_forum(fresh, "revision_requests"),
        "pdf_requests_per_forum": _per_forum(fresh, "pdf_requests"),
        # ... and the partition's totals (this run's and resumed forums)
        "rules": dict(Counter(x["rule"] for x in records)),
        "pdfs_stored": sum(1 for x in records if x.get("pdf_sha256")),
        "errors": {k: v for k, v in errors.items() if k},
        "pdf_fetch_total": dict(Counter(x.get("pdf_fetch") or "none" for x in records)),
        "cross_check_disagreements": sum(1 for x in records if (x.get("cross_check") or "").startswith("disagree")),
        "deadline_announced": venue.deadline.announced if venue.deadline else "rolling",
        "deadline_announced_utc": venue.submission_deadline.isoformat() if venue.deadline else "rolling",
        "deadline_source": venue.deadline.source if venue.deadline else "",
        "deadline_confidence": venue.deadline.confidence if venue.deadline else "",
        "deadline_invitations": check["invitations"],
        "deadline_check": check["status"],
        "deadline_disagreement_h": check.get("disagreement_h"),
        "cutoff": iso_utc(check.get("cutoff_ms")) or "none (rolling venue)",
        "cutoff_rule": check.get("cutoff_rule"),
        "chosen_revisions": Table(records, PREVIEW_COLUMNS, limit=20, what="forums"),
    }
    deadline = CheckOutcome(
        DEADLINE_CHECK, passed=check["status"] in ("agree", "agree_abstract", "rolling"), severity="WARN",
        metadata={"status": check["status"], "disagreement_h": check.get("disagreement_h"),
                  "problems": "; ".join(check.get("problems") or []) or "none",
                  "cutoff_rule": check.get("cutoff_rule")})
    return StageResult(written={"path": r.out_path}, counts=counts, checks=[deadline], row_count=r.table.num_rows)
