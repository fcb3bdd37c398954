"""The dataset card stage (`dataset_card`): README.md with configs, dataset_info, statistics and plots
from every split's recorded figures and part records, so `datasets.load_dataset(<root>/corpus)` works;
and its writes under the corpus folder, through the store's one atomic-publish primitive
(`Store.publish`): one publication of the storage root, so the card and its plots move into place
together under one journal. The card's text is rendered in `reviewbench_assets.domain.card`, its
front matter in `domain/manifest.py`. Each split rewrites its own entries of that front matter with
its shards (stages/split_stage.py `write_manifest`), under the same lock (`CARD_LOCK`)."""
from __future__ import annotations

from datetime import UTC, datetime

from partitions.catalogue import catalogue
from reviewbench_assets.domain.card import card_for_ui, render_dataset_card
from reviewbench_assets.domain.card_format import fmt_value
from reviewbench_assets.domain.corpus_stats import SplitStats
from reviewbench_assets.domain.manifest import card_front_matter, extra_config_splits, set_split, with_data
from reviewbench_assets.domain.resubmission_rows import with_config
from reviewbench_assets.io.checksums import DamagedPartError
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.stages.figures import CARD, SPLIT, Markdown
from reviewbench_assets.stages.live_card import live_section
from reviewbench_assets.stages.resubmission_card import publish_chains
from reviewbench_assets.stages.split_stage import CARD_LOCK
from reviewbench_assets.stages.stage import Stage


def write_dataset_card(pub: Staging, text: str) -> None:
    """README.md in the corpus folder, staged in the card's publication."""
    pub.put_in("CORPUS_DIR", "README.md", text.encode("utf-8"))


# --------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------


def _publish_plot(pub: Staging, rel: str, fig, ax) -> str:
    """Legend, layout, PNG bytes (no "Software" stamp: same stats, same bytes), staged at `rel` in the
    corpus folder; the figure is closed. Returns ``rel``. (matplotlib is imported, Agg backend
    chosen, by ``write_score_plots``.)"""
    import io

    import matplotlib.pyplot as plt

    ax.legend(fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    pub.put_in("CORPUS_DIR", rel, buf.getvalue())
    return rel


def write_score_plots(pub: Staging, stats: dict[str, SplitStats]) -> dict[str, str]:
    """One PNG per split at ``plots/<split>_ratings.png`` of the corpus folder: the share of reviews per
    rating value, one bar series per venue-year. Returns {split: relative path}; {} when
    matplotlib is not installed (the card then keeps only its text histograms)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}

    out: dict[str, str] = {}
    for s in with_data(stats):
        series = {k: v.rating_counts for k, v in sorted(s.venue_years.items()) if v.rating_counts}
        if not series:
            continue
        values = sorted({r for counts in series.values() for r in counts})
        fig, ax = plt.subplots(figsize=(7, 3.2), dpi=100)
        width = 0.8 / len(series)
        for i, (key, counts) in enumerate(series.items()):
            total = sum(counts.values())
            xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(values))]
            ax.bar(xs, [100 * counts.get(v, 0) / total for v in values], width=width,
                   label=f"{key} (n={total:,})")
        ax.set_xticks(range(len(values)), [fmt_value(v) for v in values])
        ax.set_xlabel("rating")
        ax.set_ylabel("% of reviews")
        ax.set_title(f"{s.split}: rating distribution per venue-year")
        out[s.split] = _publish_plot(pub, f"plots/{s.split}_ratings.png", fig, ax)
        moved = {k: v.moves for k, v in sorted(s.venue_years.items()) if v.moves.get("edited")}
        if moved:  # mean rating at posting vs final, per venue-year with edited reviews
            fig, ax = plt.subplots(figsize=(7, 3.2), dpi=100)
            xs = range(len(moved))
            ax.bar([x - 0.2 for x in xs], [m["initial_sum"] / m["tracked"] for m in moved.values()], 0.4,
                   label="at posting")
            ax.bar([x + 0.2 for x in xs], [m["final_sum"] / m["tracked"] for m in moved.values()], 0.4, label="final")
            ax.set_xticks(list(xs), list(moved), fontsize=7)
            ax.set_ylabel("mean rating")
            ax.set_title(f"{s.split}: how ratings moved during the discussion")
            out[f"{s.split}:moves"] = _publish_plot(pub, f"plots/{s.split}_rating_moves.png", fig, ax)
    return out


# ---- the stage ------------------------------------------------------------------------------------------

class CardStage(Stage):
    """README.md with configs, dataset_info, statistics and plots, so `datasets.load_dataset(dir)` works."""

    name = CARD
    reads = ("daily_changes", "split_figures", "resubmission_chains")
    writes = ("CORPUS_DIR",)  # README.md and its plots
    part_of = SPLIT  # README.md and the split records are the split's files, written under one lock
    after = (SPLIT,)  # every split's records

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        # Read every split's figures and part records and publish: one README.md writer at a time (the
        # splits rewrite its manifest under this lock too; the card never takes a split's lock). Taking
        # it replays dead runs' journals, so none can bring an older README.md back after this one.
        with outputs.lock(CARD_LOCK):
            stats, extra = {}, {}
            # every split's figures as of one moment (each split publishes its own while the card reads)
            figures, records_of = inputs.split_figures(list(catalogue().splits))
            for split, raw in figures.items():
                s = SplitStats.from_dict(raw)
                if s.num_examples:
                    stats[split] = s
                    for name, parts in (raw.get("configs") or {}).items():
                        extra.setdefault(name, {})[split] = parts
            corpus = outputs.path("CORPUS_DIR")
            # a part whose files fail their check is not listed (issue 38.1): README.md never sends a
            # reader to bytes other than those published; the run then fails naming what to re-run
            damaged = {split: {r["pk"]: bad for r in records if (bad := outputs.damage(r))}
                       for split, records in records_of.items()}
            records_of = {split: [r for r in records if r["pk"] not in damaged[split]]
                          for split, records in records_of.items()}
            # each split's exact files and row count from its part records, as its split wrote them
            configs = extra_config_splits(extra)
            header, listing = card_front_matter(stats, configs), outputs.listing("CORPUS_DIR")
            for split, records in records_of.items():
                if records or split in stats:
                    header = set_split(header, split, records, listing)
            chains = inputs.resubmission_chains()  # the resubmissions stage's, as it published them
            if chains is not None and chains.num_rows:
                header = with_config(header)
            with outputs.publish() as pub:  # the card and its plots move into place together
                text = render_dataset_card(stats, configs,
                                           datetime.now(UTC).isoformat(timespec="seconds"), config_counts=extra,
                                           plots=write_score_plots(pub, stats), header=header)
                # venue-years followed during their discussion (venue_changes' daily figures and plot)
                text += live_section(inputs, [v.key for v in catalogue().venues], pub)
                section, num_chains = publish_chains(pub, chains)
                text += section
                write_dataset_card(pub, text)
                pub.card_checksum(text)
        self.stat("corpus", corpus)
        self.stat("splits", {k: v.num_examples for k, v in stats.items()})
        self.stat("card", Markdown(card_for_ui(text)[:20000]))
        self.stat("chains", num_chains)
        for split, parts in damaged.items():
            if parts:
                raise DamagedPartError(split, parts)
