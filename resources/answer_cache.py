"""OpenReview's answers to GET requests of one unfinished attempt at a partition, kept in storage as
they arrive so that the re-run of a killed run does not ask them again (issue 29.3).

An entry is one request (API version, path, parameters in any order) and the body OpenReview sent,
with the requests it cost (retries included), so per-forum accounting of a resumed answer equals an
uninterrupted run's. The file is written whole (`Store.write_bytes` publishes atomically); an entry
that is missing, truncated or for another request is a miss, asked again.

Which attempt the answers belong to, and when they are dropped, is decided by the caller
(`reviewbench_assets.stages.attempt`): this module only keeps them.
"""
from __future__ import annotations

import hashlib
import json

from resources.store import Store


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
