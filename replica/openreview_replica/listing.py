"""The list endpoints' shared query handling: sorting, limit/offset/after paging, visibility to the
caller, `content.<field>` filters."""

from __future__ import annotations

from .fixture_model import readable
from .http_base import ApiError, not_found


def sort_key(field: str):
    def k(o):
        v = o.get(field)
        if v is None and field == "number":
            v = 0
        return (v is None, v if v is not None else 0, o.get("id", ""))
    return k


def sort_items(items: list[dict], sort: str | None, default: str) -> list[dict]:
    sort = sort or default
    fieldname, _, direction = sort.partition(":")
    out = sorted(items, key=sort_key(fieldname))
    if direction.lower() == "desc":
        out.reverse()
    return out


def content_value(c: dict, k: str):
    v = c.get(k)
    if isinstance(v, dict) and "value" in v:
        return v["value"]
    return v


def sha_from_value(v) -> str | None:
    if not isinstance(v, str):
        return None
    name = v.rsplit("/", 1)[-1]
    return name.split(".", 1)[0] or None


class Listing:
    """Paging and filtering: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    def _limit_offset(self) -> tuple[int, int]:
        try:
            limit = int(self.q.get("limit") or 1000)
            offset = int(self.q.get("offset") or 0)
        except ValueError:
            raise ApiError(400, "ValidationError", "limit/offset must be integers") from None
        if limit > 1000:
            raise ApiError(400, "ValidationError", "limit must be <= 1000", {"path": "limit"})
        return min(limit, self.state.max_page_size), offset

    def _page(self, items: list[dict], default_sort: str) -> tuple[list[dict], int]:
        items = sort_items(items, self.q.get("sort"), default_sort)
        total = len(items)
        after = self.q.get("after")
        if after:
            pos = next((i for i, o in enumerate(items) if o["id"] == after), None)
            items = items[pos + 1:] if pos is not None else []
        limit, offset = self._limit_offset()
        if self.state.faults.page_size:  # fault: short pages whatever `limit` asked
            limit = min(limit, self.state.faults.page_size)
        return items[offset:offset + limit], total

    def _visible(self, o: dict) -> bool:
        return readable(o.get("readers"), self.groups)

    def _one(self, kind: str, key: str, obj: dict | None, check_readers: bool = True) -> dict:
        """The note, edit or reference asked for by id, as the API answers it: 404 if there is
        none, 403 if the caller may not read it (v1 references carry no readers to check)."""
        if obj is None:
            raise not_found(f"The {kind} {key} was")
        if check_readers and not self._visible(obj):
            raise ApiError(403, "ForbiddenError", f"User does not have permission to read {kind} {key}")
        return obj

    def _filter_content(self, items: list[dict]) -> list[dict]:
        for k, v in self.q.items():
            if k.startswith("content."):
                key = k[len("content."):]
                items = [n for n in items if str(content_value(n.get("content") or {}, key)) == v]
        return items
