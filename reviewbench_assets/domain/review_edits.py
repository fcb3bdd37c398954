"""Which reviews may have changed during the rebuttal: the one rule behind the crawl's review
edit-history requests (`stages.crawl.edited_reviews`) and the Re^2 initial scores (`re2`).

Re^2 records scores "before and after rebuttal". A note says when it was last modified (`tmdate`),
not by whom, and on API v2 venues the venue's own meta-invitation edits (`<venue>/-/Edit`, used by
the program chairs to release reviews and change readers) touch reviews too: every one of the 61
reviews of the 16 real ICLR 2026 forums in docs/openreview-api.md §1.8 carries
`ICLR.cc/2026/Conference/-/Edit` and a `tmdate` on 2025-11-12, the day reviews were released, so
`tmdate > tcdate` flags every released review and would cost one edit-history request per paper.
What the note does settle: a review last modified before the paper's authors first posted in the
forum was not changed in response to them, whoever modified it; its scores before and after the
rebuttal are its current ones. Only a review modified once the authors had posted (or in a forum
where they never posted) needs its history.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from reviewbench_assets.domain.posts import Post, role_of


def authors_first(signed: Iterable[tuple[str, int | None]]) -> int | None:
    """Creation time (ms) of the first post the paper's authors signed, from (signature, creation
    time) pairs: a raw note's, or a parsed post's; None when they posted nothing."""
    times = [t for sig, t in signed if t and role_of(str(sig)) == "author"]
    return min(times) if times else None


def authors_first_post(replies: Iterable[Mapping[str, Any]]) -> int | None:
    """`authors_first` over raw API notes (v1 or v2), any of whose signatures may be the authors'."""
    return authors_first((s, int(r.get("tcdate") or r.get("cdate") or 0))
                         for r in replies for s in r.get("signatures") or [])


def authors_first_parsed(posts: Iterable[Post]) -> int | None:
    """`authors_first` over a parsed forum's posts."""
    return authors_first((p.signature, p.tcdate) for p in posts)


def changed_during_rebuttal(tcdate: int | None, tmdate: int | None, authors_first: int | None) -> bool:
    """Whether a review may hold scores that changed once the authors had posted: modified after
    creation (or its creation time unknown), and not provably before the authors' first post."""
    if tcdate is None:
        return True
    if tmdate is None or tmdate <= tcdate:
        return False
    return authors_first is None or tmdate >= authors_first
