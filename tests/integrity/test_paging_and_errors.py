"""Pagination by the API's `count`, and which API errors are a forum's answer (no HTTP here)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from partitions.catalogue import catalogue
from resources.openreview_api import CredentialsError, OpenReviewError, RateLimitedError, is_retryable, stops_the_run
from resources.store import store_from_uri
from reviewbench_assets.io.stage_io import Folder
from reviewbench_assets.stages.crawl import CrawlShortfall, crawl_forums


class FakeApi:
    """Answers /notes with at most `page` notes per request and the true `count`."""

    api = "v2"

    def __init__(self, n: int, page: int, lose_after: int | None = None):
        self.notes = [{"id": f"note{i:04d}", "content": {}} for i in range(n)]
        self.page, self.lose_after, self.calls = page, lose_after, []
        self.stats = Counter()

    def get_json(self, path, params):
        self.calls.append(dict(params))
        if params.get("invitation", "").endswith("Submission") is False:
            return {"notes": [], "count": 0}
        off = int(params["offset"])
        end = off + min(self.page, int(params["limit"]))
        if self.lose_after is not None:
            end = min(end, self.lose_after)
        return {"notes": self.notes[off:end], "count": len(self.notes)}

    def get_bytes(self, path, params):  # the crawl reads a page as sent, one note at a time
        return json.dumps(self.get_json(path, params)).encode()


def test_short_pages_are_followed_until_the_count(tmp_path):
    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2024")
    api = FakeApi(23, page=5)
    got = [x["note"]["id"] for x in crawl_forums(api, venue, Folder(store, "ck")) if x["query"] == "submissions"]
    assert got == [n["id"] for n in api.notes]
    assert all(c.get("count") == "true" for c in api.calls)


def test_an_empty_page_before_the_count_is_an_error_with_numbers(tmp_path):
    store = store_from_uri(str(tmp_path))
    api = FakeApi(23, page=5, lose_after=12)
    with pytest.raises(CrawlShortfall, match=r"count=23 but the API returned only 12 notes"):
        list(crawl_forums(api, catalogue().get("iclr-2024"), Folder(store, "ck")))


def test_a_truncated_page_checkpoint_is_fetched_again(tmp_path):
    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2024")
    list(crawl_forums(FakeApi(7, page=5), venue, Folder(store, "ck")))
    pages = store.list_files(store.path("ck"))
    store.write_bytes(pages[0], b'{"notes": [{"id": "no')
    api = FakeApi(7, page=5)
    got = [x["note"]["id"] for x in crawl_forums(api, venue, Folder(store, "ck")) if x["query"] == "submissions"]
    assert len(got) == 7 and len(api.calls) == 1  # only the broken page was asked for again


def test_a_page_delivered_and_killed_while_it_is_read_is_not_asked_again(tmp_path, monkeypatch):
    # issue 38.7: a kill after the API delivered a page, while the crawl reads it (a 1000-forum
    # page takes a while), must not cost the answer: the re-run takes the page from its checkpoint
    from reviewbench_assets.stages import crawl as crawl_module

    class Killed(BaseException):
        pass

    store = store_from_uri(str(tmp_path))
    venue = catalogue().get("iclr-2024")
    real = crawl_module.notes_page

    def killed_while_reading(text):
        raise Killed()

    monkeypatch.setattr(crawl_module, "notes_page", killed_while_reading)
    first = FakeApi(7, page=5)
    with pytest.raises(Killed):
        list(crawl_forums(first, venue, Folder(store, "ck")))
    assert len(first.calls) == 1
    monkeypatch.setattr(crawl_module, "notes_page", real)
    again = FakeApi(7, page=5)
    got = [x["note"]["id"] for x in crawl_forums(again, venue, Folder(store, "ck")) if x["query"] == "submissions"]
    assert got == [n["id"] for n in again.notes]
    assert first.calls[0] not in again.calls  # the delivered page was not asked for again


@pytest.mark.parametrize("exc, final, stops", [
    (OpenReviewError("NotFoundError", "gone", 404, "/pdf"), True, False),
    (OpenReviewError("ServerError", "boom", 503, "/pdf"), False, False),
    (OpenReviewError("ConnectionError", "reset", None, "/pdf"), False, False),
    (RateLimitedError("slow down.", "/pdf", 3600, 60), False, True),
    (CredentialsError("ChallengeRequiredError", "log in", 403, "/pdf", logged_in=False), False, True),
])
def test_error_classes(exc, final, stops):
    assert (not is_retryable(exc)) is final and stops_the_run(exc) is stops


def test_the_rate_limit_message_says_when_and_what_to_set():
    msg = str(RateLimitedError("Too many requests.", "/pdf", 3600, 60))
    assert "3600s" in msg and "OPENREVIEW_MAX_RATE_LIMIT_WAIT_S" in msg and "re-run after" in msg
