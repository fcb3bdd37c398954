"""Render the dataset card (``README.md``) of the ReviewBench-shaped output.

Pure domain code: no Dagster. The YAML front matter follows the ReviewBench card
(``docs/reviewbench-dataset-card.md``): ``configs``/``data_files`` per split with
data, and ``dataset_info`` (features from REVIEWBENCH_SCHEMA, splits with their sizes), so that
``datasets.load_dataset(<out_dir>)`` returns a DatasetDict with one split per conference and
``load_dataset(<out_dir>, "<extra config>")`` loads an extra config.
"""
from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa
import yaml

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
]

PRETTY_NAME = "ReviewBench A Multi-Conference Peer-Review Corpus"
TASK_CATEGORIES = ["text-generation", "text-classification", "summarization", "question-answering"]
TAGS = ["peer-review", "openreview", "scientific-papers", "nlp", "benchmarking", "meta-science"]

# --------------------------------------------------------------------------------------------
# Front matter
# --------------------------------------------------------------------------------------------


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


def _body(
    stats: dict[str, SplitStats],
    extra_configs: dict | None,
    generated_at: str,
    title: str,
    config_counts: dict | None = None,
    plots: dict[str, str] | None = None,
) -> str:
    splits = with_data(stats)
    papers = sum(s.papers for s in splits)
    reviews = sum(s.reviews for s in splits)
    pages = sum(s.pages for s in splits)
    n_vy = sum(len(s.venue_years) for s in splits)
    years = sorted(
        {vy.year for s in splits for vy in s.venue_years.values() if vy.year is not None}
    )
    out: list[str] = []
    w = out.append
    w(f"# {title}\n")
    w(
        "A multi-conference corpus of **peer-reviewed papers + their reviews + author rebuttals + "
        "acceptance decisions**, harvested from [OpenReview](https://openreview.net) and aligned "
        "with **OCR'd full-text markdown** of each paper's initial submission.\n"
    )
    w(f"- **{fmt_int(papers)}** papers")
    w(f"- **{fmt_int(reviews)}** reviews")
    w(f"- **{fmt_int(pages)}** OCR'd PDF pages (markdown inlined per row)")
    span = f", **{years[0]} – {years[-1]}**" if years else ""
    w(f"- **{plural(len(splits), 'conference')}**, **{plural(n_vy, 'venue/year combination')}**{span}")
    w(f"- Generated: {generated_at}\n")
    w("```python")
    w("from datasets import load_dataset")
    w('ds = load_dataset("<path or repo id>")')
    w("print(ds)")
    w("# DatasetDict({")
    for s in splits:
        w(f"#     {s.split}: Dataset(num_rows={s.num_examples})")
    w("# })")
    w("```\n")

    # Per-split totals.
    w("## Splits\n")
    w("One **split per conference family**. Within a split, filter by `year`, `venue_id`, or "
      "`track` for slicing.\n")
    w("| Split | Venue-years | Papers | Reviews | Pages | Accepted | Acceptance rate | "
      "Shards | Parquet bytes |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for s in splits:
        w(
            f"| {s.split} | {', '.join(sorted(s.venue_years))} | {fmt_int(s.papers)} | "
            f"{fmt_int(s.reviews)} | {fmt_int(s.pages)} | {fmt_int(s.accepted)} | "
            f"{fmt_rate(s.accepted, s.papers)} | {len(s.files)} | {fmt_int(s.num_bytes)} |"
        )
    w(
        f"| **total** | {n_vy} | **{fmt_int(papers)}** | **{fmt_int(reviews)}** | "
        f"**{fmt_int(pages)}** | {fmt_int(sum(s.accepted for s in splits))} | "
        f"{fmt_rate(sum(s.accepted for s in splits), papers)} | "
        f"{sum(len(s.files) for s in splits)} | {fmt_int(sum(s.num_bytes for s in splits))} |\n"
    )
    empty = [s for s in ordered_splits(stats) if stats[s].num_examples == 0]
    if empty:
        w(f"Splits without data (not listed in `configs`): {', '.join(empty)}.\n")

    # Per venue-year.
    w("## Statistics per venue-year\n")
    w("| Split | Venue-year | Conference | Year | Track | Papers | Reviews | Reviews/paper | "
      "Pages | Pages/paper | Accepted | Acceptance rate | Mean rating |")
    w("|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in splits:
        for key in sorted(s.venue_years):
            vy = s.venue_years[key]
            w(
                f"| {s.split} | `{key}` | {vy.conference} | {vy.year if vy.year is not None else '–'}"
                f" | {vy.track or 'main'} | {fmt_int(vy.papers)} | {fmt_int(vy.reviews)} | "
                f"{fmt_num(vy.reviews / vy.papers if vy.papers else None)} | {fmt_int(vy.pages)} | "
                f"{fmt_num(vy.pages / vy.papers_with_markdown if vy.papers_with_markdown else None)}"
                f" | {fmt_int(vy.accepted)} | {fmt_rate(vy.accepted, vy.papers)} | "
                f"{fmt_num(vy.mean_rating)} |"
            )
    w("")
    w(
        "*Venue-year* is `<conference>-<year>` plus `-<track>` when the track is not `main`. "
        "*Pages* counts `markdown.count(\"\\n\\n---\\n\\n\") + 1` over papers with non-empty "
        "markdown (pages/paper is over those papers). *Accepted*: a `decision` starting with "
        "\"Accept\" counts as accepted and one mentioning reject/withdraw as not; without such a "
        "decision the final `venue` string decides (accepted unless empty or containing "
        "\"Reject\", \"Withdrawn\", \"Desk Rejected\" or \"Submitted to\"). Withdrawn, "
        "desk-rejected and rejected papers are rows too, so the acceptance rate is over every "
        "submission, rolling venues (TMLR) included. *Mean rating* is over the numeric `rating` of "
        "every review in `reviews_json`; rating scales differ between venues.\n"
    )

    # Score distributions.
    w("## Rating distributions\n")
    w("Distribution of the numeric `rating` field of every review (`reviews_json`), per split.\n")
    for s in splits:
        counts = s.rating_counts()
        n = sum(counts.values())
        w(f"### {s.split}\n")
        w(
            f"{fmt_int(n)} rated reviews; mean {fmt_num(mean_rating(counts))}, "
            f"median {fmt_num(median_rating(counts))}.\n"
        )
        if plots and s.split in plots:
            w(f"![{s.split} rating distribution per venue-year]({plots[s.split]})\n")
        w("```text")
        w(rating_histogram(counts))
        w("```\n")

    # Schema.
    w("## Schema\n")
    w("Each row is one paper. The default config has exactly these columns:\n")
    w("| Column | Type | Notes |")
    w("|---|---|---|")
    for f in REVIEWBENCH_SCHEMA:
        typ = f"list<{f.type.value_type}>" if pa.types.is_list(f.type) else str(f.type)
        w(f"| `{f.name}` | `{typ}` | {COLUMN_DESCRIPTIONS.get(f.name, '')} |")
    w("")
    sep = PAGE_SEPARATOR.encode("unicode_escape").decode()
    w(f"Page boundaries inside `markdown` are marked with `{sep}`.\n")
    w("### Decoding `reviews_json`\n")
    w("`reviews_json` is `json.dumps(list[dict])`:\n")
    w("```python")
    w("import json")
    w(f'df = ds["{splits[0].split if splits else "iclr"}"].to_pandas()')
    w('df["reviews"] = df["reviews_json"].map(json.loads)')
    w("```\n")
    w(
        f"Each review dict is the **union of all review forms** ({len(REVIEW_FIELDS)} fields); "
        "absent text fields are `\"\"`, absent scores `None`.\n"
    )
    w("| Kind | Fields |")
    w("|---|---|")
    for kind, fields in (
        ("text", REVIEW_TEXT_FIELDS),
        ("score (numeric or null)", REVIEW_SCORE_FIELDS),
        ("flag (bool or null)", REVIEW_FLAG_FIELDS),
        ("dict (venue-specific leftovers)", REVIEW_DICT_FIELDS),
        ("score trajectory: `[{time, rating, confidence, edit_id}]` oldest first, from the review's "
         "edit history (one point if never edited, `[]` if edited but the history was not crawled)",
         REVIEW_HISTORY_FIELDS),
    ):
        w(f"| {kind} | {', '.join(f'`{x}`' for x in fields)} |")
    w("")

    if extra_configs:
        w("## Other configs\n")
        w("| Config | Splits | Load with |")
        w("|---|---|---|")
        for name in sorted(extra_configs):
            names = [f["split"] for f in _config_files(name, extra_configs[name])]
            if names:
                w(f"| `{name}` | {', '.join(names)} | `load_dataset(<path>, \"{name}\")` |")
        w("")
        if config_counts:
            w("Examples per config, conference and split:\n")
            w("| Config | Conference | Split | Examples |")
            w("|---|---|---|---:|")
            for name in sorted(config_counts):
                for conf in ordered_splits(config_counts[name]):
                    for part, n in sorted(config_counts[name][conf].items()):
                        w(f"| `{name}` | {conf} | {part} | {fmt_int(n)} |")
            w("")
        if any(n in extra_configs for n in TRAIN_TEST_CONFIGS):
            w(
                "`review` and `rebuttal` follow the Re^2 record shapes: `review` has one record per "
                "paper (reviews with `initial_score` / `final_score`, `metareview`, `decision`); "
                "`rebuttal` one record per paper and reviewer, `messages` with roles "
                "system / user / assistant (the reviewer speaks as `assistant`, the authors as "
                "`user`; global responses appear in user messages as marked reference context). "
                "Both carry provenance (`revision_rule`, `pdf_sha256`, `ocr_engine`, `ocr_model`, "
                "`crawled_at`, and for dialogues the note ids of every message and who merged "
                "it: `merged_by`). `train`/`test` is decided by the forum id alone "
                "(sha256 of the id), the same rule in both configs, so no paper is in both "
                "splits. `initial_score` is only filled for reviews never modified after "
                "posting (`initial_score_source`); edited reviews have it null.\n"
            )

    w("## License\n")
    w(
        "Released under [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/). Paper full "
        "text and review text remain the intellectual property of their respective authors.\n"
    )
    return "\n".join(out)


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
) -> str:
    """``README.md`` text: YAML front matter (``yaml.safe_dump``) + markdown statistics.

    ``stats`` maps split name -> SplitStats; splits with ``num_examples == 0`` are left out of
    ``configs`` and ``dataset_info``. ``extra_configs`` maps config name -> the splits it has
    files for (``<config>/<split>-*``), or -> {split: glob} (``extra_config_splits``).
    ``config_counts`` ({config: {conference: {split: n}}}) adds a table; ``plots`` ({split:
    relative PNG path}, ``write_score_plots``) embeds the rating plots. ``dataset_info.splits[].num_bytes`` is the uncompressed
    Arrow estimate (HF semantics; ``SplitStats.dataset_bytes``), ``download_size`` the sum of the
    Parquet file sizes (``SplitStats.num_bytes``).
    """
    header = yaml.safe_dump(
        card_front_matter(stats, extra_configs, pretty_name),
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1000,
    )
    body = _body(stats, extra_configs, generated_at, title, config_counts, plots)
    return f"---\n{header}---\n\n{body}"
