"""Replica forums of iclr-2024 (API v2) and iclr-2020 (API v1), crawled once per session."""
from __future__ import annotations

import pyarrow.fs as pafs
import pytest

from openreview_replica import ReplicaServer, build_fixtures
from partitions.catalogue import catalogue
from resources.openreview_api import OpenReviewApi
from resources.store import Store
from reviewbench_assets.domain.revisions import forum_meta
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import crawl_forums

VENUES = ["iclr-2024", "iclr-2020"]


@pytest.fixture(scope="session")
def pdf_fixtures():
    # A seed of its own (the e2e suite uses 0) so both suites together cover more generated forums.
    return build_fixtures(VENUES, seed=7, n_forums=40)


@pytest.fixture(scope="session")
def pdf_replica(pdf_fixtures):
    with ReplicaServer(pdf_fixtures, port=0, web_delay_ms=20) as rep:
        yield rep


def api_for(rep: ReplicaServer, pk: str) -> OpenReviewApi:
    venue = catalogue().get(pk)
    v2 = OpenReviewApi(rep.api_v2_url, "v2", rep.username, rep.password, max_attempts=2, timeout_s=20)
    if venue.api == "v2":
        return v2
    # one login on API v2 serves both hosts (as OpenReviewResource does)
    return OpenReviewApi(rep.api_v1_url, "v1", None, None, token=v2.token, max_attempts=2, timeout_s=20)


@pytest.fixture(scope="session")
def forum_metas(pdf_replica, tmp_path_factory) -> dict[str, list[dict]]:
    """pk -> forum_meta of every crawled submission (the crawl the asset reads from)."""
    out = {}
    for pk in VENUES:
        store = Store(pafs.LocalFileSystem(), str(tmp_path_factory.mktemp(f"crawl-{pk}")))
        api = api_for(pdf_replica, pk)
        out[pk] = [forum_meta(r["note"]) for r in crawl_forums(api, catalogue().get(pk), Folder(store, "ck"))]
    return out
