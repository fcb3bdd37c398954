"""Publishing the dataset card and its score plots under the corpus folder, through the store's one
atomic-publish primitive (`Store.publish`): the card stage passes one publication of the storage
root (`pub`), so the card and its plots move into place together under one journal. The card's
text is rendered in `reviewbench_assets.domain.card`."""
from __future__ import annotations

import pyarrow.fs as pafs

from resources.store import Store
from resources.store_publish import Publication
from reviewbench_assets.domain.card import with_data
from reviewbench_assets.domain.card_format import fmt_value
from reviewbench_assets.domain.corpus_stats import SplitStats
from reviewbench_assets.io.layout import join_path


def _publish(fs: pafs.FileSystem, out_dir: str, rel: str, data: bytes, pub: Publication | None = None) -> str:
    """Write ``out_dir/rel`` atomically (staged into ``pub`` when given); the final path."""
    store = Store(fs, out_dir)
    final = store.path(rel) if out_dir else rel
    if pub is None:
        store.write_bytes(final, data)
    else:
        with fs.open_output_stream(pub.target(final)) as f:
            f.write(data)
    return final


def write_dataset_card(fs: pafs.FileSystem, out_dir: str, text: str, pub: Publication | None = None) -> str:
    """Write ``out_dir/README.md`` atomically. Returns the final path."""
    return _publish(fs, out_dir, "README.md", text.encode("utf-8"), pub)


# --------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------


def _publish_plot(fs: pafs.FileSystem, out_dir: str, rel: str, fig, ax, pub: Publication | None) -> str:
    """Legend, layout, PNG bytes (no "Software" stamp: same stats, same bytes), published at
    ``out_dir/rel``; the figure is closed. Returns ``rel``. (matplotlib is imported, Agg backend
    chosen, by ``write_score_plots``.)"""
    import io

    import matplotlib.pyplot as plt

    ax.legend(fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    _publish(fs, out_dir, rel, buf.getvalue(), pub)
    return rel


def write_score_plots(fs: pafs.FileSystem, out_dir: str, stats: dict[str, SplitStats],
                      pub: Publication | None = None) -> dict[str, str]:
    """One PNG per split under ``out_dir/plots/<split>_ratings.png``: the share of reviews per
    rating value, one bar series per venue-year. Returns {split: relative path}; {} when
    matplotlib is not installed (the card then keeps only its text histograms)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}

    out: dict[str, str] = {}
    fs.create_dir(join_path(out_dir, "plots"), recursive=True)
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
        out[s.split] = _publish_plot(fs, out_dir, f"plots/{s.split}_ratings.png", fig, ax, pub)
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
            out[f"{s.split}:moves"] = _publish_plot(fs, out_dir, f"plots/{s.split}_rating_moves.png", fig, ax,
                                                        pub)
    return out


# --------------------------------------------------------------------------------------------
# The manifest: README.md's data_files and row counts of one split, in the split's publication
# --------------------------------------------------------------------------------------------

# The body of README.md while no card stage has run: the header is what `load_dataset` needs.
FIRST_BODY = ("# ReviewBench\n\nThe splits published so far (front matter above: `configs` and `dataset_info`). "
              "The `dataset_card` stage writes this card's statistics and plots.\n")


def corpus_listing(store: Store, corpus: str) -> dict[str, int]:
    """{corpus-relative shard path: size} of every published shard (one listing per shard folder)."""
    from reviewbench_assets.io.layout import CORPUS_SHARD_DIRS, list_files

    out = {}
    for folder in CORPUS_SHARD_DIRS:
        for info in list_files(store.fs, join_path(corpus, folder)):
            if not info.base_name.startswith("."):
                out[f"{folder}/{info.base_name}"] = int(info.size or 0)
    return out


def read_parts(store: Store, split: str) -> list[dict]:
    """A conference split's part records as published (`corpus_stats/<split>/<pk>.json`), by key."""
    from reviewbench_assets.io.layout import list_files, paths

    return [store.read_json(i.path) for i in sorted(list_files(store.fs, store.path(paths.split_part_dir(split))),
                                                  key=lambda i: i.base_name) if i.base_name.endswith(".json")]


def write_manifest(store: Store, pub: Publication, corpus: str, split: str, parts: list[dict],
                   only_if_changed: bool = False) -> str | None:
    """Stage README.md into `pub` with `split` reading exactly the files of `parts` (its part records
    as they will be once `pub` is published) and expecting their rows (domain/manifest.py
    `set_split`); the rest of the card stays as it is, and a minimal card is written when there is
    none yet. The caller holds the card's lock (`dataset-card`) from before it read anything it
    rewrites until `pub` is published (`Store.lock` replays dead runs' journals once held: a dead
    run's README.md replayed later would bring back an older manifest). The
    README.md target is staged after the shards and part records, so it moves into place after them
    and before the replaced shards are deleted (`remove_after`). Returns the README.md path, or None
    when `only_if_changed` and README.md already reads so."""
    from reviewbench_assets.domain.card import card_front_matter, card_parts, card_text
    from reviewbench_assets.domain.manifest import set_split

    readme = join_path(corpus, "README.md")
    before = store.read_bytes(readme).decode("utf-8") if store.exists(readme) else None
    header, body = card_parts(before) if before is not None else (card_front_matter({}), FIRST_BODY)
    text = card_text(set_split(header, split, parts, corpus_listing(store, corpus)), body)
    if only_if_changed and text == before:
        return None
    with store.fs.open_output_stream(pub.target(readme)) as f:
        f.write(text.encode("utf-8"))
    return readme
