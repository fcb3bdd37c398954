"""What the crawl records (and an asset check counts) for a forum that is not clean: the reasons a
raw forum needs a look (pure domain code, no Dagster)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partitions.catalogue import VenueYear
from reviewbench_assets.domain.forum import ForeignRepliesError, parse_forum
from reviewbench_assets.domain.posts import MalformedForumError, invitation_name

# Reply names that are no review-form content but are known, harmless parts of a forum.
KNOWN_OTHER_NAMES = frozenset({
    "Revision", "Rebuttal_Revision", "Camera_Ready_Revision", "PC_Revision", "Edit", "Post_Submission",
    "Under_Review", "Ethics_Review", "Ethics_Meta_Review", "Review_Rating", "Review_Approval",
    "Reviewer_Rating", "Supplementary_Material", "Camera_Ready_Verification", "Author_Revision",
    "Official_Review_Rating", "Withdrawal_Reversion", "Desk_Rejection_Reversion", "Retraction",
})


def quarantine_reasons(raw: Any, venue: VenueYear) -> list[str]:
    """Why a raw forum needs a look: malformed submission or replies, replies under an invitation
    the catalogue does not know, replies whose parent is missing. [] for a clean forum."""
    try:
        parsed = parse_forum(raw, venue)
    except ForeignRepliesError as exc:  # quarantined; what else is wrong with the rest of it?
        rest = dict(raw, details=dict(raw["details"], replies=[
            r for r in raw["details"]["replies"] if not (isinstance(r, Mapping) and r.get("id") in exc.reply_ids)]))
        return [f"malformed forum: {exc.reason}"] + quarantine_reasons(rest, venue)
    except MalformedForumError as exc:
        return [f"malformed forum: {exc.reason}"]
    reasons = list(parsed.warnings)
    for p in parsed.posts:
        if p.kind != "other":
            continue
        names = [invitation_name(i) for i in (p.parent_invitations + p.invitations)]
        if not any(n in KNOWN_OTHER_NAMES for n in names):
            reasons.append(f"{parsed.forum_id}: reply {p.note_id} under unknown invitation "
                           f"{(p.invitations or [''])[0]!r}")
    return reasons
