"""The parsed forum alone, for tests that look at the parser's output without its routing: production
takes both from `domain/forum.py parse_routed`, once, in the parse stage (issue 39 item 5: no
production function kept for the tests alone)."""
from __future__ import annotations

from collections.abc import Mapping

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.forum import parse_routed
from reviewbench_assets.domain.posts import ParsedForum


def parse_forum(raw: dict, venue: VenueYear, review_edits: Mapping[str, list[dict]] | None = None) -> ParsedForum:
    """`parse_routed` without the routing."""
    return parse_routed(raw, venue, review_edits)[0]
