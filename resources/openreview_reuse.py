"""What OpenReview is not asked again (issue 29.3): the re-run of a killed run, and every client of a
run, reuse what OpenReview already answered.

- `AnswerCache`: OpenReview's answers to GET requests of one unfinished attempt at a partition, kept
  in storage as they arrive so that the re-run of a killed run does not ask them again. An entry is
  one request (API version, path, parameters in any order) and the body OpenReview sent, with the
  requests it cost (retries included), so per-forum accounting of a resumed answer equals an
  uninterrupted run's. The file is written whole (`Store.write_bytes` publishes atomically); an
  entry that is missing, truncated or for another request is a miss, asked again. Which attempt the
  answers belong to, and when they are dropped, is decided by the caller
  (`reviewbench_assets.stages.stage`, the partition's run attempt): this module only keeps them.
- `token_client`: an openreview-py client of an earlier login's token, built without a request.
"""
from __future__ import annotations

import functools
import hashlib
import json

from resources.store import Store

# ---- the answers of an unfinished attempt ----------------------------------------------------------------

class AnswerCache:
    def __init__(self, store: Store, folder: str):
        self.store, self.folder = store, folder  # relative to the store's root
        self.hits = 0
        self.kept = 0

    @staticmethod
    def _request(api: str, path: str, params: dict | None) -> dict:
        return {"api": api, "path": path, "params": sorted((str(k), str(v)) for k, v in (params or {}).items())}

    def _file(self, request: dict) -> str:
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:32]
        return self.store.path(self.folder, digest[:2], f"{digest}.answer")

    def get(self, api: str, path: str, params: dict | None) -> tuple[bytes, int] | None:
        """(body, requests it cost) of an earlier answer to this request, or None."""
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
        request = self._request(api, path, params)
        meta = {"request": request, "length": len(body), "cost": cost}
        self.store.write_bytes(self._file(request), json.dumps(meta).encode() + b"\n" + body)
        self.kept += 1

    def clear(self) -> None:
        self.store.delete_dir(self.store.path(self.folder))


# ---- a client of an earlier login token, without the profile request -------------------------------------

class _ProfileNotRead:
    """openreview-py's constructor asks `GET /profiles?id=<user>` whenever it is given a token, for
    `client.profile`, which the client uses only to sign what it writes. Ours only read, so while
    the client is being built its profile lookup answers None: no request (one per client, three
    per run, asked again by every re-run of a killed run, issue 29.3)."""
    _built = False

    def get_profile(self, *args, **kwargs):
        if not self._built:
            return None
        return super().get_profile(*args, **kwargs)


@functools.cache
def _reading_class(cls):
    return type(f"Reading{cls.__name__}", (_ProfileNotRead, cls), {})


def token_client(cls, baseurl: str, token: str):
    """A client of an earlier login's token, built without the profile request."""
    client = _reading_class(cls)(baseurl=baseurl, token=token)
    client._built = True
    return client
