"""Render the dataset card (``README.md``) of the ReviewBench-shaped output.

Pure domain code: no Dagster. The YAML front matter follows the ReviewBench card
(``docs/reviewbench-dataset-card.md``): ``configs``/``data_files`` per split with
data, and ``dataset_info`` (features from REVIEWBENCH_SCHEMA, splits with their sizes), so that
``datasets.load_dataset(<out_dir>)`` returns a DatasetDict with one split per conference and
``load_dataset(<out_dir>, "<extra config>")`` loads an extra config.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa

from partitions.catalogue import catalogue

from .card_format import fmt_int, fmt_num, fmt_rate, mean_rating, median_rating, plural, rating_histogram
from .corpus_stats import SplitStats
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

__all__ = [
    "PRETTY_NAME",
    "hf_features",
    "size_category",
    "ordered_splits",
    "card_front_matter",
    "rating_histogram",
    "render_dataset_card",
    "extra_config_splits",
    "card_for_ui",
    "card_text",
    "card_parts",
]

PRETTY_NAME = "ReviewBench A Multi-Conference Peer-Review Corpus"
# The card's text, a Jinja template rendered by huggingface_hub's DatasetCard.from_template.
TEMPLATE = Path(__file__).parent / "templates" / "dataset_card.md"
TASK_CATEGORIES = ["text-generation", "text-classification", "summarization", "question-answering"]
TAGS = ["peer-review", "openreview", "scientific-papers", "nlp", "benchmarking", "meta-science"]

# --------------------------------------------------------------------------------------------
# Front matter
# --------------------------------------------------------------------------------------------


# the provenance column `revision_rule`'s values (domain/revisions.py), in the card's order
TEXT_RULES = ("initial", "current_is_initial", "earliest_public", "unavailable")


def _hf_dtype(t: pa.DataType) -> str:
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_boolean(t):
        return "bool"
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        if getattr(pa.types, f"is_{name}")(t):
            return name
    if pa.types.is_float32(t):
        return "float32"
    if pa.types.is_float64(t):
        return "float64"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "binary"
    if pa.types.is_timestamp(t):
        return f"timestamp[{t.unit}]" + (f", tz={t.tz}" if t.tz else "")
    raise TypeError(f"no Hugging Face dtype for Arrow type {t}")


def _hf_feature(name: str | None, t: pa.DataType) -> dict:
    out: dict = {} if name is None else {"name": name}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        inner = t.value_type
        if pa.types.is_list(inner) or pa.types.is_struct(inner):
            out["list"] = _hf_feature(None, inner).get("struct") or [_hf_feature(None, inner)]
        else:
            out["list"] = _hf_dtype(inner)
    elif pa.types.is_struct(t):
        out["struct"] = [_hf_feature(f.name, f.type) for f in t]
    else:
        out["dtype"] = _hf_dtype(t)
    return out


def hf_features(schema: pa.Schema = REVIEWBENCH_SCHEMA) -> list[dict]:
    """``dataset_info.features`` in the card's notation (``dtype: int32``, ``list: string``)."""
    return [_hf_feature(f.name, f.type) for f in schema]


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket for ``n`` examples."""
    if n < 1_000:
        return "n<1K"
    bounds = [(10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"),
              (10**7, "1M<n<10M"), (10**8, "10M<n<100M"), (10**9, "100M<n<1B")]
    for bound, label in bounds:
        if n < bound:
            return label
    return "n>1B"


def ordered_splits(names: Iterable[str]) -> list[str]:
    """In the catalogue's split order (the conference list lives only there); others alphabetically."""
    order = catalogue().split_order
    names = list(dict.fromkeys(names))
    known = [s for s in order if s in names]
    return known + sorted(s for s in names if s not in order)


def _config_files(name: str, splits: list[str] | dict[str, str]) -> list[dict]:
    """``data_files`` of an extra config: a list of split names means ``<name>/<split>-*``; a
    dict maps split name -> glob (e.g. ``train`` -> ``review/*_train-*``, gathered from the
    files every conference asset writes)."""
    if isinstance(splits, dict):
        return [{"split": s, "path": splits[s]} for s in sorted(splits, key=lambda x: (x != "train", x))]
    return [{"split": s, "path": f"{name}/{s}-*"} for s in ordered_splits(splits)]


# Extra configs whose files are per (conference, train/test) and whose splits are train/test.
TRAIN_TEST_CONFIGS = ("review", "rebuttal")


def extra_config_splits(configs: dict[str, dict[str, dict[str, int]]]) -> dict:
    """{config: {conference: {split: num_examples}}} (what the conference assets recorded) ->
    the ``extra_configs`` argument of ``render_dataset_card``."""
    out: dict = {}
    for name, per_conf in configs.items():
        if name in TRAIN_TEST_CONFIGS:
            parts = sorted({p for counts in per_conf.values() for p in counts})
            out[name] = {p: f"{name}/*_{p}-*" for p in parts}
        else:
            out[name] = sorted(per_conf)
    return out


def with_data(stats: dict[str, SplitStats]) -> list[SplitStats]:
    return [stats[s] for s in ordered_splits(stats) if stats[s].num_examples > 0]


def card_front_matter(
    stats: dict[str, SplitStats],
    extra_configs: dict[str, list[str]] | None = None,
    pretty_name: str = PRETTY_NAME,
) -> dict:
    """The YAML header as a dict (see module docstring)."""
    splits = with_data(stats)
    total = sum(s.num_examples for s in splits)
    configs: list[dict] = []
    if splits:
        configs.append(
            {
                "config_name": "default",
                "default": True,
                "data_files": [
                    {"split": s.split, "path": f"data/{s.split}-*"} for s in splits
                ],
            }
        )
    for name in sorted(extra_configs or {}):
        files = _config_files(name, (extra_configs or {})[name])
        if files:
            configs.append({"config_name": name, "data_files": files})
    header: dict = {
        "license": "cc-by-4.0",
        "task_categories": list(TASK_CATEGORIES),
        "language": ["en"],
        "tags": list(TAGS),
        "pretty_name": pretty_name,
        "size_categories": [size_category(total)],
        "configs": configs,
    }
    if splits:
        header["dataset_info"] = {
            "features": hf_features(REVIEWBENCH_SCHEMA),
            "splits": [
                {"name": s.split, "num_bytes": int(s.dataset_bytes or s.num_bytes),
                 "num_examples": int(s.num_examples)}
                for s in sorted(splits, key=lambda s: s.split)
            ],
            "download_size": int(sum(s.num_bytes for s in splits)),
            "dataset_size": int(sum(s.dataset_bytes or s.num_bytes for s in splits)),
        }
    return header


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
    other = [{"name": name, "splits": ", ".join(f["split"] for f in _config_files(name, extra_configs[name]))}
             for name in sorted(extra_configs or {}) if _config_files(name, extra_configs[name])]
    counts_rows = [{"name": name, "conference": conf, "part": part, "n": fmt_int(n)}
                   for name in sorted(config_counts or {}) for conf in ordered_splits(config_counts[name])
                   for part, n in sorted(config_counts[name][conf].items())]
    review_fields = [
        ("text", REVIEW_TEXT_FIELDS), ("score (numeric or null)", REVIEW_SCORE_FIELDS),
        ("flag (bool or null)", REVIEW_FLAG_FIELDS), ("dict (venue-specific leftovers)", REVIEW_DICT_FIELDS),
        ("score trajectory: `[{time, rating, confidence, edit_id}]` oldest first, from the review's edit "
         "history (one point if never edited, `[]` if edited but the history was not crawled)",
         REVIEW_HISTORY_FIELDS)]
    return {
        "title": title, "generated_at": generated_at,
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
    return _checked(str(card), header)


def _checked(text: str, header: dict) -> str:
    """Read back as the Hub reads it: the front matter must be the header we meant, whole."""
    from huggingface_hub import DatasetCard

    again = DatasetCard(text).data.to_dict()
    if again.get("configs") != header.get("configs") or again.get("dataset_info") != header.get("dataset_info"):
        raise ValueError("dataset card: the rendered YAML front matter does not read back as written")
    return text.rstrip("\n") + "\n"


def card_parts(text: str) -> tuple[dict, str]:
    """(the YAML front matter as a dict, the markdown after it) of a README.md."""
    from huggingface_hub import DatasetCard

    card = DatasetCard(text)
    return card.data.to_dict(), card.text


def card_text(header: dict, body: str) -> str:
    """README.md text of a front matter and a markdown body (the split stage's rewrite of the
    manifest keeps the card's body as it is), checked as ``render_dataset_card`` checks its own."""
    from huggingface_hub import DatasetCardData

    return _checked(f"---\n{DatasetCardData(**header).to_yaml()}\n---\n{body}", header)
