"""The README's two generated blocks, so neither can go stale (issue 28.6):

- ``asset-graph``: a Mermaid picture of the asset graph, read from ``reviewbench_assets.definitions``
  (assets with the same group, parents and children, such as the seven ``<conference>_split``
  assets, are one node);
- ``figures``: the figures that matter, each the latest line of ``benchmarks/results.jsonl`` for
  its metric (the file is append-only: `make bench` adds lines, the last one is the newest), never
  typed by hand.

``python -m scripts.readme_figures`` rewrites both blocks in README.md; ``--check`` only says whether
they are current (exit 1 if not). ``tests/test_readme.py`` holds the README to what this generates
from the committed results.jsonl and the current definitions.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "results.jsonl"


@dataclass(frozen=True)
class Figure:
    metric: str
    what: str  # the figure in words, with what its baseline is
    where: dict = field(default_factory=dict)  # the line must hold these fields
    per: str | None = None  # the latest line per value of this field; the block shows the lowest


FIGURES = [
    Figure("fulltext_real_pass_rate_text-layer",
           "full text: olmOCR-Bench's own scorer, share of the frozen real-paper part's tests passed (baseline: pymupdf4llm)"),
    Figure("fulltext_scanned_dev_pass_rate_text-layer",
           "full text on scans: the real-paper dev part made image-only (150-300 dpi, skewed, noisy JPEG), "
           "olmOCR-Bench's scorer, share of tests passed (baseline: pymupdf4llm 2.0)"),
    Figure("fulltext_realscans_frozen_pass_rate_text-layer",
           "full text on real scans (old books, typewritten, fax, skewed and turned pages, scanned tables; "
           "tests by hand), frozen part, olmOCR-Bench's scorer, share of tests passed (baseline: pymupdf4llm 2.0)"),
    Figure("fulltext_tablesworld_frozen_pass_rate_text-layer_table",
           "full text on real-world tables (ICDAR 2013's government reports: word-processor, spreadsheet and "
           "report-writer tables), frozen part, olmOCR-Bench's scorer, share of table tests passed (baseline: pymupdf4llm 2.0)"),
    Figure("fulltext_olmocr_sample_pass_rate_text-layer",
           "full text on mixed real documents: olmOCR-Bench's own sample (scans, tables, columns, maths; "
           "held out), its scorer, share of tests passed (baseline: pymupdf4llm 2.0)"),
    Figure("fulltext_real_pages_per_s_text-layer",
           "full text: pages/s through paper_markdown on the real-paper set (baseline: pymupdf4llm)"),
    Figure("markdown_coverage", "papers with a public PDF that get markdown, iclr-2024 (baseline: `initial_only`)",
           {"partition": "iclr-2024"}),
    Figure("openreview_requests_per_paper_v2", "OpenReview requests per paper, API v2 (baseline: API recipe)"),
    Figure("openreview_requests_per_paper_v1", "OpenReview requests per paper, API v1 (baseline: API recipe)"),
    Figure("rate_limit_utilisation", "share of OpenReview's allowed request rate used once the limit is learnt "
           "(baseline: the limit)"),
    Figure("scale_time_per_forum_ratio_5000_vs_500", "s per forum, whole chain, 5,000 forums (baseline: 500)",
           {"stage": "whole_chain"}),
    Figure("scale_peak_rss_ratio_5000_vs_500", "peak MB, whole chain, 5,000 forums (baseline: 500)",
           {"stage": "whole_chain"}),
    Figure("split_update_ratio_7_vs_1", "s to update a split with 7 venue-years (baseline: 1)"),
    Figure("noop_refresh_request_ratio", "requests of a refresh with nothing new, 5,000 forums (baseline: full crawl)"),
    Figure("live_change_recall", "live venue: simulated 14-day discussion, true changes recorded (256 forums)"),
    Figure("live_change_precision", "live venue: recorded changes that are true"),
    Figure("live_requests_per_changed_forum",
           "live venue: requests per forum changed that day, edit histories included (baseline: full crawl per forum)"),
    Figure("live_noop_request_ratio", "live venue: requests of a day without changes (baseline: the first build)"),
    Figure("dialogue_coverage", "author/reviewer posts accounted for, lowest of the replica's partitions",
           per="partition"),
    Figure("kill_resume_failures", "failed resumes after kill -9, API v1 iclr-2020 (baseline: trials)",
           {"partition": "iclr-2020"}),
    Figure("kill_resume_repeated_requests", "requests a killed run's re-run asked again, kills in every stage, "
           "API v1 iclr-2020 (baseline: trials)", {"partition": "iclr-2020"}),
    Figure("kill_resume_failures", "failed resumes after kill -9, API v2 iclr-2024 (baseline: trials)",
           {"partition": "iclr-2024"}),
    Figure("kill_resume_repeated_requests", "requests a killed run's re-run asked again, kills in every stage, "
           "API v2 iclr-2024 (baseline: trials)", {"partition": "iclr-2024"}),
    Figure("download_unkept_window_us_p90", "microseconds a received download lives only in memory before the write that "
           "keeps it, p90 (baseline: the record written after the body)"),
    # `fault_failures` is recorded by two benches: the pytest fault suites (bench_faults, no `suite`) and the
    # crash points (bench_crash_points, `suite` set); each gets its row
    Figure("fault_failures", "failed fault trials of the pytest fault suites (baseline: trials)", {"suite": None}),
    Figure("fault_failures", "failed crash-point trials: a kill before every publish call, local and S3 "
           "(baseline: trials)", {"suite": "crash points (bench_crash_points)"}),
    Figure("reader_violations", "reads that saw half a publish during the crash-point trials, the project's reader "
           "`Store.snapshot` (baseline: reads)"),
    Figure("reader_violations_load_dataset", "the same, `datasets.load_dataset` reading README.md's data_files "
           "(baseline: reads)"),
    Figure("load_dataset_errors", "its reads that met a listed shard deleted as README.md switched: an error to "
           "the user, no rows (baseline: reads)"),
    Figure("data_path_lines_to_read", "lines of the project modules a reader opens to follow one partition, "
           "crawl to conference split"),
    Figure("edge_declaration_places", "places that declare one edge of the data path, most of any edge "
           "(baseline: 0a3ff42)"),
    Figure("deadline_agreement", "catalogue deadlines agreeing with the invitations (baseline: before issue 10)"),
]


def load_results(path: Path = RESULTS) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _num(v) -> str:
    if isinstance(v, bool) or v is None or v == "":
        return "" if v in (None, "") else str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.4g}" if abs(v) < 1e4 else f"{v:,.0f}"
    return str(v)


def _row(fig: Figure, rows: list[dict]) -> str:
    lines = [r for r in rows if r["metric"] == fig.metric and all(r.get(k) == v for k, v in fig.where.items())]
    if not lines:
        raise ValueError(f"benchmarks/results.jsonl has no line for {fig.metric} {fig.where or ''}")
    if fig.per is None:
        r = lines[-1]
        value, baseline, ratio, commit = _num(r["value"]), _num(r.get("baseline")), _num(r.get("ratio")), r["commit"]
        unit = r.get("unit", "")
    else:
        latest = {r.get(fig.per): r for r in lines}  # the last line of each wins
        r = min(latest.values(), key=lambda x: x["value"])
        value = f"{_num(r['value'])} (lowest of {len(latest)}: {r.get(fig.per)})"
        baseline, ratio, commit, unit = _num(r.get("baseline")), _num(r.get("ratio")), r["commit"], r.get("unit", "")
    goal = r.get("goal", "")
    goal = _num(goal) if not isinstance(goal, str) else goal
    return f"| {fig.what} | `{fig.metric}` | {value} | {unit} | {baseline} | {ratio} | {goal} | {commit} |"


def render_figures(rows: list[dict]) -> str:
    head = ["| figure | metric | value | unit | baseline | ratio | goal | commit |", "|---|---|---|---|---|---|---|---|"]
    return "\n".join(head + [_row(f, rows) for f in FIGURES])


def render_asset_graph() -> str:
    from reviewbench_assets.definitions import defs

    graph = defs.resolve_asset_graph()
    nodes = {k.to_user_string(): graph.get(k) for k in graph.get_all_asset_keys()}
    parents = {n: sorted(p.to_user_string() for p in node.parent_keys) for n, node in nodes.items()}
    children = {n: sorted(c for c, ps in parents.items() if n in ps) for n in nodes}
    # assets alike in group, parents and children (the conference splits) are drawn as one node
    shape = {n: (nodes[n].group_name, tuple(parents[n]), tuple(children[n])) for n in nodes}
    members: dict[tuple, list[str]] = {}
    for n in sorted(nodes):
        members.setdefault(shape[n], []).append(n)
    node_of = {n: ms[0] for ms in members.values() for n in ms}

    def label(first: str) -> str:
        names = members[shape[first]]
        return first if len(names) == 1 else f"{len(names)} assets: " + ", ".join(names)

    out = ["```mermaid", "flowchart LR"]
    for title, partitioned in (("per venue-year partition", True), ("whole corpus", False)):
        out.append(f'  subgraph {"partition" if partitioned else "corpus"}["{title}"]')
        for first in sorted({node_of[n] for n in nodes if (nodes[n].partitions_def is not None) == partitioned}):
            out.append(f'    {first}["{label(first)}"]')
        out.append("  end")
    edges = sorted({(node_of[p], node_of[n]) for n in nodes for p in parents[n]})
    out += [f"  {a} --> {b}" for a, b in edges]
    out.append("```")
    return "\n".join(out)


def _marks(name: str) -> tuple[str, str]:
    return (f"<!-- BEGIN GENERATED {name}: python -m scripts.readme_figures -->", f"<!-- END GENERATED {name} -->")


def replace_block(text: str, name: str, body: str) -> str:
    begin, end = _marks(name)
    pattern = re.compile(re.escape(begin) + r"\n(?:.*?\n)?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"README.md has no {name} block ({begin} ... {end})")
    return pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text, count=1)


def block(text: str, name: str) -> str | None:
    begin, end = _marks(name)
    m = re.search(re.escape(begin) + r"\n(?:(.*?)\n)?" + re.escape(end), text, re.S)
    return (m.group(1) or "") if m else None


def generated(readme: str, rows: list[dict]) -> str:
    text = replace_block(readme, "asset-graph", render_asset_graph())
    return replace_block(text, "figures", render_figures(rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if README.md's generated blocks are not current")
    args = ap.parse_args(argv)
    text = README.read_text()
    new = generated(text, load_results())
    if args.check:
        if new != text:
            print("README.md's generated blocks are stale: python -m scripts.readme_figures", file=sys.stderr)
            return 1
        return 0
    if new != text:
        README.write_text(new)
        print("README.md: generated blocks rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
