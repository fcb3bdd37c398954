"""Score trajectories from both sources (issue 30 item 3): a review's own edit history (exact times,
`score_history` of the parsed table) and the daily observations of the refreshes (`venue_changes`:
the first refresh at which a new score was seen). Pure domain code.

Merging rule, per review: every edit-history point is kept (its time is exact); a review never
edited has one point read from the review itself (`single_reading`, no edit id), never labelled an edit. An observation is
explained by the history when the history's state at the refresh time (its last point at or before
it) has the observed scores; otherwise the score changed without an edit the crawl holds (a venue
that edits in place without history, or a history not crawled) and the observation becomes a point
of its own, at the refresh time, the first day the new score was seen.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

EDIT = "edit_history"  # an edit of the review's own history, with its edit id
OBSERVED = "daily_observation"  # a score a refresh saw that the history does not explain
SINGLE = "single_reading"  # a review never edited: its one point, read from the review itself (no edit id)


def _state_at(history: list[dict], t_ms: int) -> dict | None:
    last = None
    for p in history:
        if p.get("time") is not None and p["time"] <= t_ms:
            last = p
    return last


def merged_trajectory(history: list[dict], observations: Iterable[tuple[int, float | None, float | None]]
                      ) -> list[dict]:
    """Points `{time, rating, confidence, source, edit_id}` oldest first. `history`: the review's
    `score_history`; `observations`: (refresh time ms, rating, confidence) of each refresh that saw
    the review added or its scores changed, in refresh order."""
    # a point without an edit id is the parser's one-point rule (domain/reviews.py score_history: a
    # review never edited has its final scores at posting time), not an edit: it says so
    points = [{"time": p.get("time"), "rating": p.get("rating"), "confidence": p.get("confidence"),
               "source": EDIT if p.get("edit_id") else SINGLE, "edit_id": p.get("edit_id")}
              for p in history if p.get("time") is not None]
    for t, rating, confidence in observations:
        known = _state_at(points, t)  # history points and the observations already added
        if known is not None and (known["rating"], known["confidence"]) == (rating, confidence):
            continue
        points.append({"time": t, "rating": rating, "confidence": confidence, "source": OBSERVED, "edit_id": None})
        points.sort(key=lambda p: p["time"])
    return points


def _day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d")


def _end_of_day_ms(day: str) -> int:
    d = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    return int(d.timestamp() * 1000) + 86_400_000 - 1


def daily_figures(trajectories: Mapping[str, list[dict]], refresh_days_ms: Iterable[int]) -> list[dict]:
    """Per refresh day (UTC): the reviews known by its end, their mean rating, and the share whose
    rating differs from their first one (changed at least once so far)."""
    rows = []
    for day in sorted({_day(t) for t in refresh_days_ms}):
        end = _end_of_day_ms(day)
        now, changed = [], 0
        for points in trajectories.values():
            rated = [p for p in points if p["time"] <= end and p["rating"] is not None]
            if not rated:
                continue
            now.append(rated[-1]["rating"])
            changed += rated[-1]["rating"] != rated[0]["rating"]
        rows.append({"day": day, "reviews": len(now),
                     "mean_rating": round(sum(now) / len(now), 4) if now else None,
                     "share_changed": round(changed / len(now), 4) if now else None})
    return rows
