"""The partition's run attempt, whose OpenReview answers the crawl and the PDF stage reuse."""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from resources.store import Store
from reviewbench_assets.io.layout import paths

# One attempt at a partition: the run that started it and every run that resumes it after a kill,
# and the OpenReview answers they received (issue 29.3: nothing asked twice after a kill).
#
# A run of a partition's chain asks OpenReview venue-level questions at every stage (the crawl's
# listing pages, the venue group, the submission invitation's deadline...). The CLI's re-run of a
# killed run materializes every step again, stages that had finished included, so without this it
# asked them all again. Those answers are kept per partition under `checkpoints/attempt/<pk>/` as they
# arrive (`AnswerCache`), with the attempt's record `attempt.json` (the run that owns it,
# its lineage root and when the attempt started).
#
# The rule, decided by the first step of a run that opens it:
# - the same run (another of its steps, a step retry) or a re-execution of it (same lineage root):
#   the attempt goes on;
# - another run, when the owner run is known NOT to have succeeded (failed, canceled, or still marked
#   started: it died) and the attempt started less than RESUME_WINDOW_S ago: this run resumes it (it
#   becomes the owner; the answers are reused);
# - otherwise (the owner succeeded, is unknown to this instance, or the attempt is older than the
#   window): the answers are dropped and a new attempt starts. So a NEW run after a finished one
#   asks OpenReview again (the nightly refresh sees new reviews), and so does the next night's run
#   after a failed one: the window (12 h) is shorter than the schedule's period (24 h).
#
# Final answers: a closed venue-year (VenueYear.closed_at) cannot change its venue-level answers any
# more (its API version, the deadline OpenReview enforced), so they are final outcomes, not the state
# of an attempt: the requests the caller names (`final`: dagster_step.py
# final_venue_requests) are kept under `checkpoints/final/<pk>/`, which no new attempt drops, and
# every later run takes them from there (a re-materialization after a finished run asks them
# nothing; before, it asked the venue group and the deadline invitation again). An open venue-year
# names none: each new run asks again, which is its refresh.
#
# Answers are dropped lazily (the next run finds its owner succeeded): a finished run leaves at most
# one venue's listing and a few small answers behind until then. Per-forum answers keep their own
# checkpoints (crawl pages of an unpublished crawl, review edit histories, revision histories, PDFs),
# keyed by the notes' versions, which do not depend on the attempt. No Dagster here: the run's state
# comes in as a function.

RESUME_WINDOW_S = 12 * 3600


class AnswerCache:
    """OpenReview's answers to GET requests of one unfinished attempt, kept in storage as they arrive.
    An entry is one request (API version, path, parameters in any order) and the body OpenReview
    sent, with the requests it cost (retries included), so per-forum accounting of a resumed answer
    equals an uninterrupted run's. The file is written whole (`Store.write_bytes` publishes
    atomically); an entry that is missing, truncated or for another request is a miss, asked again.
    Which attempt the answers belong to, and when they are dropped: `open_attempt` below."""

    def __init__(self, store: Store, folder: str, final: AnswerCache | None = None,
                 final_requests: Iterable[tuple[str, str, dict]] = ()):
        self.store, self.folder = store, folder  # relative to the store's root
        self.hits = 0  # answers given back without a request
        # the requests (API, path, parameters) whose answers are final, kept in `final` instead
        self.final = final
        self.final_keys = {self._key(self._request(*r)) for r in final_requests}

    @staticmethod
    def _key(request: dict) -> str:
        return json.dumps(request, sort_keys=True)

    def _cache_for(self, api: str, path: str, params: dict | None) -> AnswerCache:
        if self.final is not None and self._key(self._request(api, path, params)) in self.final_keys:
            return self.final
        return self

    @staticmethod
    def _request(api: str, path: str, params: dict | None) -> dict:
        return {"api": api, "path": path, "params": sorted((str(k), str(v)) for k, v in (params or {}).items())}

    def _file(self, request: dict) -> str:
        digest = hashlib.sha256(self._key(request).encode()).hexdigest()[:32]
        return self.store.path(self.folder, digest[:2], f"{digest}.answer")

    def get(self, api: str, path: str, params: dict | None) -> tuple[bytes, int] | None:
        """(body, requests it cost) of an earlier answer to this request, or None."""
        cache = self._cache_for(api, path, params)
        if cache is not self:
            got = cache.get(api, path, params)
            self.hits += got is not None
            return got
        request = self._request(api, path, params)
        file = self._file(request)
        try:
            if not self.store.exists(file):
                return None
            head, _, body = self.store.read_bytes(file).partition(b"\n")
            meta = json.loads(head)
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("request") != json.loads(json.dumps(request)) \
                or meta.get("length") != len(body):
            return None  # another request's entry (a digest collision) or a truncated one
        self.hits += 1
        return body, int(meta.get("cost") or 1)

    def put(self, api: str, path: str, params: dict | None, body: bytes, cost: int) -> None:
        cache = self._cache_for(api, path, params)
        if cache is not self:
            return cache.put(api, path, params, body, cost)
        request = self._request(api, path, params)
        meta = {"request": request, "length": len(body), "cost": cost}
        self.store.write_bytes(self._file(request), json.dumps(meta).encode() + b"\n" + body)


@dataclass
class Attempt:
    run_id: str
    continues: bool  # answers of earlier steps or runs of this attempt may be reused
    answers: AnswerCache
    resumed_from: str | None = None  # the killed (unfinished) run this run took the attempt over from


def open_attempt(store: Store, pk: str, run_id: str, root_run_id: str | None,
                 run_succeeded: Callable[[str], bool | None], now: float | None = None,
                 final: Iterable[tuple[str, str, dict]] = ()) -> Attempt:
    """The attempt this run belongs to (see the module's rule). `run_succeeded(run_id)`: True when
    that run ended in success, False when it did not (failed, canceled, died), None when unknown.
    `final`: the requests (API, path, parameters) whose answers are final outcomes, kept across
    attempts (the module's "Final answers")."""
    now = time.time() if now is None else now
    folder = store.path(paths.attempt(pk))
    record_path = store.path(paths.attempt(pk), "attempt.json")
    final = list(final)
    answers = AnswerCache(store, f"{paths.attempt(pk)}/answers",  # relative to the root
                          AnswerCache(store, paths.final_answers(pk)) if final else None, final)
    rec = store.read_json_or_none(record_path)
    root = root_run_id or run_id
    if isinstance(rec, dict) and isinstance(rec.get("run_id"), str) and isinstance(rec.get("started_at"), (int, float)):
        if rec["run_id"] == run_id or rec.get("root_run_id") == root:
            return Attempt(run_id, True, answers)
        if run_succeeded(rec["run_id"]) is False and now - rec["started_at"] < RESUME_WINDOW_S:
            store.write_json(record_path, {"run_id": run_id, "root_run_id": root, "started_at": rec["started_at"],
                                           "resumed_from": rec["run_id"]})
            return Attempt(run_id, True, answers, resumed_from=rec["run_id"])
    store.delete_dir(folder)  # a finished (or too old) attempt's answers: asked again
    store.write_json(record_path, {"run_id": run_id, "root_run_id": root, "started_at": now})
    return Attempt(run_id, False, answers)
