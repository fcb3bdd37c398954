"""Render the dataset card (``README.md``) of the ReviewBench-shaped output: its markdown (statistics,
plots, the columns), under the YAML front matter of domain/manifest.py, which follows the ReviewBench
card (``docs/reviewbench-dataset-card.md``): ``configs``/``data_files`` per split with data, and
``dataset_info`` (features from REVIEWBENCH_SCHEMA, splits with their sizes), so that
``datasets.load_dataset(<out_dir>)`` returns a DatasetDict with one split per conference and
``load_dataset(<out_dir>, "<extra config>")`` loads an extra config. Pure domain code: no Dagster.
"""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from .card_format import fmt_int, fmt_num, fmt_rate, mean_rating, median_rating, plural, rating_histogram
from .corpus_stats import SplitStats
from .licenses import card_license, license_table, split_licenses
from .manifest import (
    PRETTY_NAME,
    TRAIN_TEST_CONFIGS,
    card_front_matter,
    checked_card,
    config_files,
    ordered_splits,
    with_data,
)
from .schema import (
    COLUMN_DESCRIPTIONS,
    PAGE_SEPARATOR,
    REVIEW_DICT_FIELDS,
    REVIEW_FIELDS,
    REVIEW_FLAG_FIELDS,
    REVIEW_HISTORY_FIELDS,
    REVIEW_SCORE_FIELDS,
    REVIEW_TEXT_FIELDS,
    REVIEWBENCH_SCHEMA,
)

__all__ = ["rating_histogram", "render_dataset_card", "card_for_ui"]

# The card's text, a Jinja template rendered by huggingface_hub's DatasetCard.from_template.
TEMPLATE = Path(__file__).parent / "templates" / "dataset_card.md"


# the provenance column `revision_rule`'s values (domain/revisions.py), in the card's order
TEXT_RULES = ("initial", "current_is_initial", "earliest_public", "unavailable")


# --------------------------------------------------------------------------------------------
# Markdown body
# --------------------------------------------------------------------------------------------


def _context(stats: dict[str, SplitStats], extra_configs: dict | None, generated_at: str, title: str,
             config_counts: dict | None, plots: dict[str, str] | None) -> dict:
    """What the card template (`templates/dataset_card.md`) shows, as formatted cells."""
    splits = with_data(stats)
    papers = sum(s.papers for s in splits)
    accepted = sum(s.accepted for s in splits)
    n_vy = sum(len(s.venue_years) for s in splits)
    years = sorted({vy.year for s in splits for vy in s.venue_years.values() if vy.year is not None})
    venue_years = []
    for s in splits:
        for key in sorted(s.venue_years):
            vy = s.venue_years[key]
            venue_years.append({
                "split": s.split, "key": key, "conference": vy.conference,
                "year": vy.year if vy.year is not None else "–", "track": vy.track or "main",
                "papers": fmt_int(vy.papers), "reviews": fmt_int(vy.reviews),
                "reviews_per_paper": fmt_num(vy.reviews / vy.papers if vy.papers else None), "pages": fmt_int(vy.pages),
                "pages_per_paper": fmt_num(vy.pages / vy.papers_with_markdown if vy.papers_with_markdown else None),
                "accepted": fmt_int(vy.accepted), "rate": fmt_rate(vy.accepted, vy.papers),
                "mean_rating": fmt_num(vy.mean_rating)})
    ratings = []
    for s in splits:
        counts = s.rating_counts()
        ratings.append({"split": s.split, "rated": fmt_int(sum(counts.values())), "mean": fmt_num(mean_rating(counts)),
                        "median": fmt_num(median_rating(counts)), "plot": (plots or {}).get(s.split),
                        "histogram": rating_histogram(counts)})
    moves = []
    for s in splits:
        for key in sorted(s.venue_years):
            m = s.venue_years[key].moves
            if m.get("tracked"):
                n = m["tracked"]
                moves.append({"split": s.split, "key": key, "tracked": fmt_int(n), "edited": fmt_int(m.get("edited", 0)),
                              "changed": fmt_rate(m.get("changed", 0), n), "up": fmt_int(m.get("up", 0)),
                              "down": fmt_int(m.get("down", 0)), "initial": fmt_num(m.get("initial_sum", 0) / n),
                              "final": fmt_num(m.get("final_sum", 0) / n)})
    text_rules = []
    for s in splits:
        for key in sorted(s.venue_years):
            vy = s.venue_years[key]
            n = sum(vy.text_rules.values())
            if n:
                text_rules.append({"split": s.split, "key": key, "papers": fmt_int(n), **{
                    rule: fmt_rate(vy.text_rules.get(rule, 0), n) for rule in TEXT_RULES}})
    other = [{"name": name, "splits": ", ".join(f["split"] for f in files)}
             for name in sorted(extra_configs or {}) if (files := config_files(name, extra_configs[name]))]
    counts_rows = [{"name": name, "conference": conf, "part": part, "n": fmt_int(n)}
                   for name in sorted(config_counts or {}) for conf in ordered_splits(config_counts[name])
                   for part, n in sorted(config_counts[name][conf].items())]
    review_fields = [
        ("text", REVIEW_TEXT_FIELDS), ("score (numeric or null)", REVIEW_SCORE_FIELDS),
        ("flag (bool or null)", REVIEW_FLAG_FIELDS), ("dict (venue-specific leftovers)", REVIEW_DICT_FIELDS),
        ("score trajectory: `[{time, rating, confidence, edit_id}]` oldest first, from the review's edit "
         "history (one point if never edited, `[]` if edited but the history was not crawled)",
         REVIEW_HISTORY_FIELDS)]
    lic_papers, lic_reviews = split_licenses(splits)
    return {
        "title": title, "generated_at": generated_at,
        "license": {"id": card_license(lic_papers, lic_reviews), "table": license_table(lic_papers, lic_reviews)},
        "totals": {"papers": fmt_int(papers), "reviews": fmt_int(sum(s.reviews for s in splits)),
                   "pages": fmt_int(sum(s.pages for s in splits)), "conferences": plural(len(splits), "conference"),
                   "venue_years_text": plural(n_vy, "venue/year combination"), "venue_years": n_vy,
                   "span": f", **{years[0]} – {years[-1]}**" if years else "", "accepted": fmt_int(accepted),
                   "rate": fmt_rate(accepted, papers), "shards": sum(len(s.files) for s in splits),
                   "bytes": fmt_int(sum(s.num_bytes for s in splits))},
        "splits": [{"split": s.split, "num_examples": s.num_examples, "venue_years": ", ".join(sorted(s.venue_years)),
                    "papers": fmt_int(s.papers), "reviews": fmt_int(s.reviews), "pages": fmt_int(s.pages),
                    "accepted": fmt_int(s.accepted), "rate": fmt_rate(s.accepted, s.papers), "shards": len(s.files),
                    "bytes": fmt_int(s.num_bytes)} for s in splits],
        "empty": ", ".join(s for s in ordered_splits(stats) if stats[s].num_examples == 0),
        "venue_years": venue_years, "ratings": ratings, "moves": moves, "text_rules": text_rules,
        "moves_plots": [(split, path) for split, path in sorted((plots or {}).items()) if split.endswith(":moves")],
        "columns": [{"name": f.name, "notes": COLUMN_DESCRIPTIONS.get(f.name, ""),
                     "type": f"list<{f.type.value_type}>" if pa.types.is_list(f.type) else str(f.type)}
                    for f in REVIEWBENCH_SCHEMA],
        "page_separator": PAGE_SEPARATOR.encode("unicode_escape").decode(),
        "first_split": splits[0].split if splits else "iclr", "review_field_count": len(REVIEW_FIELDS),
        "review_fields": [(kind, ", ".join(f"`{x}`" for x in fields)) for kind, fields in review_fields],
        "other_configs": other, "config_counts": counts_rows,
        "re2": any(n in (extra_configs or {}) for n in TRAIN_TEST_CONFIGS),
        "reviews_config": "reviews" in (extra_configs or {}),
    }


def card_for_ui(text: str) -> str:
    """The card as Dagster's markdown metadata renders it well: the YAML front matter in a code block
    (as plain markdown it becomes a run-on paragraph and its `*` globs turn into italics)."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end > 0:
            return f"```yaml\n{text[4:end + 1]}```\n\n{text[end + 5:].lstrip()}"
    return text


def render_dataset_card(
    stats: dict[str, SplitStats],
    extra_configs: dict[str, list[str]] | None,
    generated_at: str,
    *,
    pretty_name: str = PRETTY_NAME,
    title: str = "ReviewBench",
    config_counts: dict | None = None,
    plots: dict[str, str] | None = None,
    header: dict | None = None,
) -> str:
    """``README.md`` text: YAML front matter (``huggingface_hub.DatasetCardData``) + the markdown of
    ``templates/dataset_card.md`` (``DatasetCard.from_template``), read back once to check it.

    ``stats`` maps split name -> SplitStats; splits with ``num_examples == 0`` are left out of
    ``configs`` and ``dataset_info``. ``extra_configs`` maps config name -> the splits it has
    files for (``<config>/<split>-*``), or -> {split: glob} (``extra_config_splits``).
    ``config_counts`` ({config: {conference: {split: n}}}) adds a table; ``plots`` ({split:
    relative PNG path}, ``write_score_plots``) embeds the rating plots. ``header``: the front matter
    to use instead of ``card_front_matter``'s (the card stage's, with each split's exact files,
    domain/manifest.py). ``dataset_info.splits[].num_bytes`` is the uncompressed
    Arrow estimate (HF semantics; ``SplitStats.dataset_bytes``), ``download_size`` the sum of the
    Parquet file sizes (``SplitStats.num_bytes``).
    """
    from huggingface_hub import DatasetCard, DatasetCardData

    header = header if header is not None else card_front_matter(stats, extra_configs, pretty_name)
    card = DatasetCard.from_template(
        DatasetCardData(**header), template_path=str(TEMPLATE),
        **_context(stats, extra_configs, generated_at, title, config_counts, plots))
    return checked_card(str(card), header)
