"""The dataset card's section on venues followed live (issue 30 item 3): for each venue-year whose
discussion was followed (`venue_changes` wrote its daily figures), the figures' as-of time, the days
followed, the mean rating and the share of reviews changed on the last day, and the plot of both per
day, copied into the corpus folder (`plots/<pk>_discussion.png`) so the card shows it wherever the
corpus goes."""
from __future__ import annotations

from reviewbench_assets.io.stage_io import Inputs, Staging


def live_section(inputs: Inputs, venue_keys: list[str], pub: Staging) -> str:
    """The card's markdown section (empty when no venue-year was followed); the plots are staged in the
    corpus folder in `pub`, so they move into place with the card. `inputs`: the card stage's (its
    `daily_changes`)."""
    rows = []
    for pk in venue_keys:
        daily, plot = inputs.of(pk).daily_changes()
        if not daily:
            continue
        rel = None
        if plot is not None:
            rel = f"plots/{pk}_discussion.png"
            pub.put_in("CORPUS_DIR", rel, plot)
        rows.append((pk, daily[0]["day"], daily[-1], rel))
    if not rows:
        return ""
    lines = ["", "## Venues followed during their discussion", "",
             "Refreshed daily while their discussion was open (`venue_changes`: every change recorded per "
             "refresh; score trajectories merge each review's edit history with the daily observations).", "",
             "| venue-year | followed from | as of (UTC day) | reviews | mean rating | share of reviews changed |",
             "|---|---|---|---:|---:|---:|"]
    lines += [f"| {pk} | {first} | {last['day']} | {last['reviews']} | {last['mean_rating']} | {last['share_changed']} |"
              for pk, first, last, _ in rows]
    for pk, _first, _last, rel in rows:
        if rel:
            lines += ["", f"![{pk}: mean rating and share of reviews changed per day]({rel})"]
    return "\n".join(lines) + "\n"
