"""The conference split stage (`<split>_split`) and the dataset card stage:
bring one split up to date with its venue-years (only the changed ones are rewritten,
stages/split_update.py), leaving out those whose data failed a blocking check; and render and
publish the card from every split's recorded figures."""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from partitions.catalogue import catalogue
from resources.store import Store
from reviewbench_assets.io.layout import blocking_failures, paths
from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.stage import CARD, ROW_COUNT, SPLIT, Markdown, Stage

# The assets whose blocking checks guard a venue-year's rows (and so its shards of the conference split).
UPSTREAM_GUARDED = ["openreview_forums", "parsed_forums", "rebuttal_dialogues"]


class SplitStage(Stage):
    """One conference split (`key`: its name) brought up to date; `log` says which venue-years were left out."""

    name = SPLIT

    def __init__(self, split: str, test_share: float = 0.05, log: Callable[[str], None] = lambda _m: None):
        super().__init__(split)
        self.test_share, self.log = test_share, log

    def run(self, store: Store) -> None:
        from reviewbench_assets.stages.split_update import update_conference_split

        split = self.key
        # One writer per split at a time, for every process on this storage root: runs of two
        # venue-years of the same conference both rebuild this split; the lock makes the later one
        # list the rows after the earlier one published, so neither drops the other's rows.
        with store.lock(f"split-{split}"):
            keys = [k for k in catalogue().keys_for_split(split) if Upstream(store, k).has_rows()]
            # A venue-year whose data failed a blocking check stays out of the split (and so the card).
            blocked = {k: f for k in keys
                       if (f := blocking_failures(store, k, [*UPSTREAM_GUARDED, "reviewbench_split"]))}
            keys = [k for k in keys if k not in blocked]
            for k, failed in blocked.items():
                self.log(f"{split}: {k} left out: its data failed blocking checks {sorted(failed)}")
            update = update_conference_split(store, split, keys, test_share=self.test_share)
            stats, configs = update.stats, update.configs
            store.write_json(store.path(paths.split_stats(split)),  # paths relative to the root
                             {**stats.to_dict(), "files": [store.rel(f) for f in stats.files], "configs": configs})
        self.stat(ROW_COUNT, stats.num_examples)
        self.stat("num_bytes", stats.num_bytes)
        self.stat("venue_years", keys)
        self.stat("files", [f.rsplit("/", 1)[-1] for f in stats.files])
        self.stat("rewritten_venue_years", update.rewritten)
        self.stat("unchanged_venue_years", update.kept)
        self.stat("removed_files", [store.rel(f) for f in update.removed])
        self.stat("blocked_venue_years", {k: sorted(f) for k, f in blocked.items()})
        self.stat("configs", configs)


class CardStage(Stage):
    """README.md with configs, dataset_info, statistics and plots, so `datasets.load_dataset(dir)` works."""

    name = CARD

    def run(self, store: Store) -> None:
        from reviewbench_assets.domain.card import card_for_ui, extra_config_splits, render_dataset_card
        from reviewbench_assets.domain.corpus_stats import SplitStats
        from reviewbench_assets.stages.card_writer import write_dataset_card, write_score_plots
        from reviewbench_assets.stages.live_card import live_section

        with store.lock("dataset-card"):  # read every split's figures and publish: one card writer at a time
            stats, extra = {}, {}
            # every split's figures as of one moment (each split publishes its own while the card reads)
            with store.snapshot([store.path(paths.split_stats(split)) for split in catalogue().splits]) as view:
                for split in catalogue().splits:
                    path = store.path(paths.split_stats(split))
                    if not view.exists(path):
                        continue
                    raw = view.read_json(path)  # a corrupt file fails the card naming it, never a split left out
                    s = SplitStats.from_dict(raw)
                    if s.num_examples:
                        stats[split] = s
                        for name, parts in (raw.get("configs") or {}).items():
                            extra.setdefault(name, {})[split] = parts
            corpus = store.path(paths.CORPUS_DIR)
            with store.publish() as pub:  # the card and its plots move into place together
                text = render_dataset_card(stats, extra_config_splits(extra),
                                           datetime.now(UTC).isoformat(timespec="seconds"), config_counts=extra,
                                           plots=write_score_plots(store.fs, corpus, stats, pub))
                # venue-years followed during their discussion (venue_changes' daily figures and plot)
                text += live_section(store, [v.key for v in catalogue().venues], corpus, pub)
                write_dataset_card(store.fs, corpus, text, pub)
        self.stat("corpus", corpus)
        self.stat("splits", {k: v.num_examples for k, v in stats.items()})
        self.stat("card", Markdown(card_for_ui(text)[:20000]))
