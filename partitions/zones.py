"""The time zones venues announce their dates in (deadlines, discussion windows), as tzinfo."""
from __future__ import annotations

from datetime import timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# Time zones deadlines are announced in. AoE ("Anywhere on Earth") is UTC-12; the US abbreviations
# are the ones calls for papers use (PDT in May-October, PST otherwise). Anything else must be an
# IANA zone name ("Africa/Nairobi"), converted with zoneinfo (daylight saving included).
FIXED_ZONES: dict[str, int] = {"AoE": -12, "UTC": 0, "GMT": 0, "PDT": -7, "PST": -8, "EDT": -4, "EST": -5,
                               "CEST": 2, "CET": 1, "EAT": 3}


def zone(tz: str):
    if tz in FIXED_ZONES:
        return timezone(timedelta(hours=FIXED_ZONES[tz]), tz)
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {tz!r}; use one of {', '.join(FIXED_ZONES)} "
                         "or an IANA name") from exc
