"""The README is a front door (issue 28.6): at most 200 lines, its asset graph and its figures are
what scripts/readme_figures.py generates from the definitions and the committed results.jsonl,
and every page it or docs/ links to exists."""
from __future__ import annotations

import re
from pathlib import Path

from scripts.readme_figures import (
    FIGURES,
    README,
    block,
    generated,
    load_results,
    render_asset_graph,
    render_figures,
)

ROOT = Path(__file__).resolve().parents[1]
# Linked before it exists: written by the full-text benchmark work on another branch (issue 27).
# Once it is merged the file exists and is checked like every other link.
PENDING = {ROOT / "docs" / "fulltext-benchmark.md"}


def test_at_most_200_lines():
    assert len(README.read_text().splitlines()) <= 200


def test_generated_blocks_are_current():
    """`python -m scripts.readme_figures` after a bench or an asset change; this says when it was not run."""
    text = README.read_text()
    assert block(text, "asset-graph") and block(text, "figures")
    assert generated(text, load_results()) == text, "stale: python -m scripts.readme_figures"


def test_the_graph_names_every_asset_and_edge():
    from reviewbench_assets.definitions import defs

    graph = defs.resolve_asset_graph()
    mermaid = render_asset_graph()
    for key in graph.get_all_asset_keys():
        name = key.to_user_string()
        shown = name if name in mermaid else name.rsplit("_", 1)[0]  # the splits: one node, names listed
        assert re.search(rf"\b{re.escape(shown)}\b", mermaid), name
    assert "openreview_forums --> parsed_forums" in mermaid and "parsed_forums --> rebuttal_dialogues" in mermaid


def test_figures_are_the_latest_line_of_each_metric():
    rows = load_results()
    fig = FIGURES[0]
    newer = dict(next(r for r in rows if r["metric"] == fig.metric), value=0.4321, commit="abc1234")
    table = render_figures(rows + [newer])
    [line] = [ln for ln in table.splitlines() if f"`{fig.metric}`" in ln]
    assert "| 0.4321 |" in line and "abc1234" in line
    assert table != render_figures(rows)


def test_every_relative_link_resolves():
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    missing = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if re.match(r"[a-z]+:", target):  # http(s), mailto
                continue
            path = (page.parent / target).resolve()
            if not path.exists() and path not in PENDING:
                missing.append(f"{page.relative_to(ROOT)} -> {target}")
    assert missing == []
