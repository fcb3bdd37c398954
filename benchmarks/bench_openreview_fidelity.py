"""How close the platform's picture of OpenReview is to what OpenReview does (issue 10).

deadline_agreement
    Share of the catalogue's dated entries whose announced deadline (local date, time and zone,
    converted by partitions/catalogue.py) lies within the crawl's tolerance (one hour) of the
    duedate on the replica's submission invitation, which the replica derives from its own venue
    data the way openreview-py does. Read through the crawl's own cross-check
    (stages/deadline_check.py venue_deadline_check), i.e. what a run reports. Baseline: the same comparison for the deadlines
    the catalogue held before issue 10 (hand-converted UTC instants, read from git at BASE_COMMIT).

revision_requests_per_forum, pdf_requests_per_forum
    OpenReview API requests per forum of a real run of the PDF stage, browser path (the revision
    page's own API calls, the ones not answered from the crawl and the run's own answers; plus any
    API fallback) and API path (the `/notes/edits` / `/references` recipe) side by side on the same
    replica forums (one v2 and one v1 venue); PDFs counted per forum (an /attachment?ids= zip is
    shared by its forums). value = browser path, baseline = API path. The page's web requests (its
    HTML, its scripts) are reported beside them as `browser_page_web_requests_per_forum`.
"""
from __future__ import annotations

import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

import pyarrow.fs as pafs
import yaml

from benchmarks.common import figure
from openreview_replica import ReplicaServer, build_fixtures
from partitions.catalogue import catalogue
from resources import BrowserResource
from resources.openreview_api import OpenReviewApi, RateLimiter
from resources.store import Store
from reviewbench_assets.domain.revisions import Cutoff, forum_meta, history_needed
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums
from reviewbench_assets.stages.deadline_check import venue_deadline_check
from reviewbench_assets.stages.pdf_stage import initial_submission_records

BASE_COMMIT = "ceca74e"  # main before issue 10: the catalogue's hand-converted UTC deadlines
REQUEST_VENUES = ("iclr-2024", "iclr-2020")
N_FORUMS = 24


def _apis(rep: ReplicaServer) -> dict[str, OpenReviewApi]:
    v2 = OpenReviewApi(rep.api_v2_url, "v2", rep.username, rep.password)
    return {"v2": v2, "v1": OpenReviewApi(rep.api_v1_url, "v1", None, None, token=v2.token)}


def _old_deadlines() -> dict[str, int] | None:
    try:
        text = subprocess.run(["git", "show", f"{BASE_COMMIT}:partitions/venues.yaml"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).resolve().parents[1]).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    out = {}
    for v in yaml.safe_load(text)["venues"]:
        if v.get("submission_deadline"):
            out[v["key"]] = int(datetime.fromisoformat(v["submission_deadline"].replace("Z", "+00:00")).timestamp() * 1000)
    return out


def deadline_figures() -> list[dict]:
    dated = [v for v in catalogue().venues if v.deadline is not None]
    fx = build_fixtures([v.key for v in dated], seed=5, n_forums=2)
    agree, exact, detail = 0, 0, {}
    old, old_agree = _old_deadlines(), 0
    with ReplicaServer(fx, port=0) as rep:
        apis = _apis(rep)
        for v in dated:
            check = venue_deadline_check(apis[v.api], v)
            due = [i.get("duedate_ms") for i in check["invitations"]]
            agree += check["status"] == "agree"
            exact += bool(due) and all(d == v.deadline_ms for d in due)
            detail[v.key] = check.get("disagreement_h")
            if old and v.key in old and due and due[0] is not None:
                old_agree += abs(old[v.key] - due[0]) <= 3_600_000
    n = len(dated)
    return [figure("deadline_agreement", round(agree / n, 4), "share of dated catalogue entries",
                   round(old_agree / n, 4) if old else None, entries=n, exact_matches=exact,
                   baseline_from=f"git {BASE_COMMIT}:partitions/venues.yaml" if old else "unavailable",
                   disagreement_h=detail)]


def request_figures() -> list[dict]:
    fx = build_fixtures(list(REQUEST_VENUES), seed=13, n_forums=N_FORUMS)
    sums = {"browser": {"rev": 0.0, "pdf": 0.0, "forums": 0, "logged": 0, "web": 0},
            "api": {"rev": 0.0, "pdf": 0.0, "forums": 0, "logged": 0, "web": 0}}
    wrong = 0
    with ReplicaServer(fx, port=0, web_delay_ms=50) as rep, tempfile.TemporaryDirectory() as tmp:
        apis = _apis(rep)
        for pk in REQUEST_VENUES:
            venue, truth = catalogue().get(pk), fx.venues[pk].forums
            api = apis[venue.api]
            store = Store(pafs.LocalFileSystem(), tmp)
            crawled = list(crawl_forums(api, venue, Folder(store, f"ck-{pk}")))
            metas = [forum_meta(r["note"]) for r in crawled]
            # the submission notes as the crawl holds them answer the page's own note lookup
            notes = {r["note"]["id"]: (venue.api, {k: v for k, v in r["note"].items() if k != "details"})
                     for r in crawled}
            cut = Cutoff.from_check(venue_deadline_check(api, venue))
            for path in ("browser", "api"):
                rep.reset_request_log()
                scraped = {}
                if path == "browser":
                    # as the stage does: only the forums whose note does not settle the choice
                    scraped = BrowserResource(max_pages=4).scrape_revisions(
                        rep.web_url, api.token, [m["forum_id"] for m in metas if history_needed(m, cut, venue.api)],
                        RateLimiter(0.0),
                        api_urls={1: rep.api_v1_url, 2: rep.api_v2_url}, notes=notes)
                    sums[path]["web"] += sum(c["all"] - c["api"] for c in scraped.requests.values())
                records = initial_submission_records(api, PdfFiles(Store(pafs.LocalFileSystem(), f"{tmp}/{pk}-{path}")),
                                                     metas, cut, scraped, max_workers=4)
                wrong += sum((r["rule"], r.get("revision_id")) != (truth[r["forum_id"]].stage_rule,
                                                                   truth[r["forum_id"]].stage_revision_id)
                             for r in records)
                s = sums[path]
                s["rev"] += sum(r["revision_requests"] for r in records)
                s["pdf"] += sum(r.get("pdf_requests") or 0.0 for r in records)
                s["forums"] += len(records)
                s["logged"] += len(rep.request_log)
    b, a = sums["browser"], sums["api"]
    common = {"venues": list(REQUEST_VENUES), "forums": b["forums"], "wrong_choices": wrong,
              "browser_counted_total": round(b["rev"] + b["pdf"], 1), "browser_replica_logged": b["logged"],
              "api_counted_total": round(a["rev"] + a["pdf"], 1), "api_replica_logged": a["logged"],
              "browser_page_web_requests_per_forum": round(b["web"] / b["forums"], 3)}
    return [
        figure("revision_requests_per_forum", round(b["rev"] / b["forums"], 3), "requests/forum",
               round(a["rev"] / a["forums"], 3), path="browser (value) vs API recipe (baseline)", **common),
        figure("pdf_requests_per_forum", round(b["pdf"] / b["forums"], 3), "requests/forum",
               round(a["pdf"] / a["forums"], 3), path="browser run (value) vs API run (baseline)", **common),
    ]


def run() -> list[dict]:
    return deadline_figures() + request_figures()


if __name__ == "__main__":
    import json
    for fig in run():
        print(json.dumps(fig))
