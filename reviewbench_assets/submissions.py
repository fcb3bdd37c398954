"""initial_submission_pdfs: the last PDF before the deadline, per forum, in the PDF store."""

import time
from collections import Counter

import dagster as dg

from partitions.catalogue import catalogue
from partitions.definitions import venue_year_partitions
from resources import BrowserResource, OpenReviewResource, StorageResource
from reviewbench_assets import paths
from reviewbench_assets.domain.submissions import (SUBMISSIONS_SCHEMA, deadline_cross_check, fingerprint,
                                                   forum_meta, initial_submission_records, records_table)
from reviewbench_assets.metadata import preview, table_metadata


class SubmissionPdfConfig(dg.Config):
    use_browser: bool = True  # False: API recipe only (v1 references / v2 note edits)
    cross_check_api: bool = False  # also run the API recipe and record agreement per forum
    # Threads choosing revisions (API fallback) and downloading PDFs; all share the rate limiter.
    download_workers: int = 8
    batch_attachments: bool = True  # v2 current_is_initial PDFs 50 per /attachment?ids= request


@dg.asset(partitions_def=venue_year_partitions, deps=["openreview_forums"], group_name="pdfs",
          pool="openreview_api", kinds={"python", "pdf"}, code_version="2")
def initial_submission_pdfs(context: dg.AssetExecutionContext, config: SubmissionPdfConfig,
                            openreview: OpenReviewResource, browser: BrowserResource,
                            storage: StorageResource) -> dg.MaterializeResult:
    """Revision history read in a real browser; chosen PDF stored by sha256 with its rule."""
    venue = catalogue().get(context.partition_key)
    store = storage.store()
    api = openreview.api(venue.api, on_event=context.log.warning)
    ckpt_dir = store.path(paths.submission_checkpoints(venue.key))
    metas = [forum_meta(r["note"]) for r in store.iter_jsonl(store.path(paths.raw_forums(venue.key)))]

    # Resume: a forum whose checkpoint matches the note and deadline is not redone.
    done, todo = {}, []
    for meta in metas:
        ck = f"{ckpt_dir}/{meta['forum_id']}.json"
        prev = store.read_json(ck) if store.exists(ck) else None
        if prev and prev.get("fingerprint") == fingerprint(meta, venue.deadline_ms):
            done[meta["forum_id"]] = prev
        else:
            todo.append(meta)
    context.log.info(f"{venue.key}: {len(done)} forums already done, {len(todo)} to do")

    # Once per venue: the catalogue deadline against the submission invitation's duedate/expdate.
    deadline_check = deadline_cross_check(
        api, [inv for vid in venue.venue_ids for inv in venue.submission_invitations(vid)], venue.deadline_ms)
    if deadline_check["status"] not in ("agree", "rolling"):
        context.log.warning(f"{venue.key}: deadline cross-check {deadline_check['status']}: "
                            f"{deadline_check.get('problems')}")

    started = time.time()
    scraped: dict = {}
    if config.use_browser and todo:
        progress = Counter()

        def on_done(_fid: str) -> None:
            progress["n"] += 1
            if progress["n"] % 25 == 0 or progress["n"] == len(todo):
                rate = progress["n"] / max(time.time() - started, 1e-6)
                eta = (len(todo) - progress["n"]) / max(rate, 1e-6)
                context.log.info(f"{venue.key}: revisions {progress['n']}/{len(todo)} "
                                 f"({rate:.1f}/s, eta {eta:.0f}s)")

        scraped = browser.scrape_revisions(openreview.web_url, api.token, [m["forum_id"] for m in todo],
                                           limiter=openreview.limiter, on_done=on_done)
    browser_s = time.time() - started

    def checkpoint(record: dict) -> None:
        store.write_json(f"{ckpt_dir}/{record['forum_id']}.json", record)
        done[record["forum_id"]] = record

    initial_submission_records(api, store, todo, venue.deadline_ms, scraped,
                               cross_check=config.cross_check_api,
                               allow_earliest_public=openreview.allow_earliest_public,
                               max_workers=config.download_workers,
                               batch_attachments=config.batch_attachments, on_record=checkpoint)

    records = [done[m["forum_id"]] for m in metas]
    table = records_table(records)
    out = store.path(paths.submissions(venue.key))
    store.write_parquet(out, table)
    rules = Counter(r["rule"] for r in records)
    errors = Counter((r.get("error") or "").split(":")[0] or None for r in records if r.get("error"))
    return dg.MaterializeResult(metadata={
        **table_metadata(SUBMISSIONS_SCHEMA, table.num_rows, out),
        "rules": dict(rules), "pdfs_stored": sum(1 for r in records if r.get("pdf_sha256")),
        "errors": {k: v for k, v in errors.items() if k}, "resumed_forums": len(metas) - len(todo),
        "browser_failures": sum(1 for r in records if r.get("revision_source") == "api" and config.use_browser),
        "cross_check_disagreements": sum(1 for r in records if (r.get("cross_check") or "").startswith("disagree")),
        "forums_per_s": round(len(todo) / max(time.time() - started, 1e-6), 2),
        "browser_s": round(browser_s, 2),
        "pdf_fetch": dict(Counter(r.get("pdf_fetch") or "none" for r in records)),
        "deadline_catalogue_ms": venue.deadline_ms,
        "deadline_invitations": deadline_check["invitations"],
        "deadline_check": deadline_check["status"],
        "chosen_revisions": preview(records, ["forum_id", "rule", "revision_id", "pdf_pages", "error"], limit=20),
    })
