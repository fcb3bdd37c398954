"""`markdown_coverage` (issue 21 item 6; goal >= 0.99): rows with markdown / rows whose forum has any
public PDF, on the replica partitions iclr-2024 (API v2, where pre-deadline edits are private) and
iclr-2020 (API v1, full history), with the default policy: the initial submission when it is
public, else the earliest public PDF (`earliest_public`, flagged in provenance).

Baseline (same run, same forums): `initial_only: true`, the strict policy of earlier stops, which
leaves every paper whose initial PDF is not public without text.

The chain is the real one without Dagster: the crawl, the PDF choice (API recipe: the browser
chooses the same revisions, `cross_check_api`), and the `text-layer` engine on each stored PDF.
"""
from __future__ import annotations

import os
import tempfile
from collections import Counter

import pyarrow.fs as pafs

from benchmarks.common import figure
from benchmarks.revision_baseline import catalogue_cutoff
from ocr_ray.conversion import convert_pdf
from ocr_ray.engines import get_engine
from openreview_replica import ReplicaServer, build_fixtures
from partitions.catalogue import catalogue
from resources.openreview_api import OpenReviewApi
from resources.store import Store
from reviewbench_assets.domain.revisions import forum_meta
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums
from reviewbench_assets.stages.pdf_stage import initial_submission_records

VENUES = ("iclr-2024", "iclr-2020")
N_FORUMS = int(os.environ.get("BENCH_COVERAGE_FORUMS", "200"))


def _markdown_rows(store: Store, records: list[dict]) -> int:
    """Papers whose stored PDF the default engine (the worker-side function of the Ray pipeline)
    turns into non-empty markdown."""
    engine = get_engine("text-layer")
    engine.setup()
    done = 0
    for i, r in enumerate(records):
        if not r.get("pdf_sha256"):
            continue
        task = {"task_index": i, "forum_id": r["forum_id"], "pdf_path": store.pdf_path(r["pdf_sha256"])}
        paper = convert_pdf(task, filesystem=store.fs, engine=engine)
        done += bool(paper["markdown"].strip()) and not paper["error"]
    return done


def run() -> list[dict]:
    out = []
    for pk in VENUES:
        fx = build_fixtures([pk], seed=3, n_forums=N_FORUMS)
        venue, truth = catalogue().get(pk), fx.venues[pk].forums
        with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory() as tmp:
            token = OpenReviewApi(rep.api_v2_url, "v2", rep.username, rep.password).token
            url = rep.api_v2_url if venue.api == "v2" else rep.api_v1_url
            api = OpenReviewApi(url, venue.api, None, None, token=token)
            store = Store(pafs.LocalFileSystem(), tmp)
            metas = [forum_meta(r["note"]) for r in crawl_forums(api, venue, Folder(store, "ck"))]
            with_public_pdf = sum(1 for t in truth.values() if t.has_pdf)
            got = {}
            for policy, allow in (("default", True), ("initial_only", False)):
                records = initial_submission_records(api, PdfFiles(Store(pafs.LocalFileSystem(), f"{tmp}/{policy}")), metas,
                                                     catalogue_cutoff(venue), {}, allow_earliest_public=allow)
                got[policy] = (_markdown_rows(Store(pafs.LocalFileSystem(), f"{tmp}/{policy}"), records),
                               Counter(r["rule"] for r in records))
        (value, rules), (base, base_rules) = got["default"], got["initial_only"]
        out.append(figure("markdown_coverage", round(value / with_public_pdf, 4), "share",
                          round(base / with_public_pdf, 4), partition=pk, forums=len(truth),
                          forums_with_public_pdf=with_public_pdf, rows_with_markdown=value,
                          rules=dict(rules), rules_initial_only=dict(base_rules), goal=0.99))
    return out


if __name__ == "__main__":
    from benchmarks.common import record

    record(run())
