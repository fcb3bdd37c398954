"""The dataset's license, computed from its records (issue 37 item 1): each record carries its note's
own license (docs/openreview-api.md 1.12), the card states one id only where every record agrees."""
from __future__ import annotations

from collections.abc import Mapping

# OpenReview's values (openreview-py e25fd7d, venue_request/venue_request.py:1469) -> Hub license ids
HUB_ID = {"CC BY 4.0": "cc-by-4.0", "CC BY-SA 4.0": "cc-by-sa-4.0", "CC BY-NC 4.0": "cc-by-nc-4.0",
          "CC BY-ND 4.0": "cc-by-nd-4.0", "CC BY-NC-SA 4.0": "cc-by-nc-sa-4.0",
          "CC BY-NC-ND 4.0": "cc-by-nc-nd-4.0", "CC0 1.0": "cc0-1.0", "unknown": "unknown"}

Counts = Mapping[str, Mapping[str, int]]  # split -> license (as the records hold it) -> records


def card_license(papers: Counts, reviews: Counts) -> str:
    """One Hub id when every paper and review has the same license; else `other` (a value OpenReview
    does not list is `other` too)."""
    seen = {lic for counts in (papers, reviews) for by in counts.values() for lic, n in by.items() if n}
    if not seen:  # figures recorded before records kept their license: nothing is known
        return "unknown"
    if len(seen) == 1:
        return HUB_ID.get(seen.pop(), "other")
    return "other"


def license_table(papers: Counts, reviews: Counts) -> str:
    """Markdown: licenses and record counts per split, papers and reviews apart."""
    lines = ["| records | split | license | count |", "|---|---|---|---:|"]
    for kind, counts in (("papers", papers), ("reviews", reviews)):
        for split in sorted(counts):
            for lic, n in sorted(counts[split].items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"| {kind} | {split} | {lic} | {n} |")
    return "\n".join(lines)


def split_licenses(splits) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """(papers, reviews): split -> license -> records, from the splits' figures (corpus_stats.SplitStats)."""
    papers: dict[str, dict[str, int]] = {}
    reviews: dict[str, dict[str, int]] = {}
    for s in splits:
        for vy in s.venue_years.values():
            for out, counts in ((papers, vy.paper_licenses), (reviews, vy.review_licenses)):
                mine = out.setdefault(s.split, {})
                for lic, n in counts.items():
                    mine[lic] = mine.get(lic, 0) + n
    return papers, reviews
