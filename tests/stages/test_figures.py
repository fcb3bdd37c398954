"""Issue 28 item 2: one step shape. Every stage is a `Stage` (stages/stage.py) recording its figures
through `stat`; every metadata key the assets emit is declared once in stages/figures.yaml, with its
type, unit and description, and the UI shows that table on each asset's page."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from resources.store import store_from_uri
from reviewbench_assets.stages.figures import (
    FIGURES,
    PARSE,
    REPORTS_PROGRESS,
    ROW_COUNT,
    STAGES,
    Table,
    UndeclaredFigure,
    figures_of,
)
from reviewbench_assets.stages.stage import Stage
from tests.stages.figures_check import ADDED_BY_ASSETS

ROOT = Path(__file__).resolve().parents[2]
STAGES_DIR = ROOT / "reviewbench_assets" / "stages"


class Counting(Stage):
    name = PARSE

    def __init__(self, calls):
        super().__init__("demo-2026")
        self.calls = calls

    def run(self, inputs, outputs) -> None:
        for name, value in self.calls:
            self.stat(name, value)


def test_stat_merges_figures_as_datatrove_does(tmp_path):
    """Numbers add up, counts per kind add up per kind, anything else is replaced; each call of the
    stage starts from nothing."""
    stage = Counting([("posts", 2), ("posts", 3), ("quarantine_codes", {"a": 1}), ("quarantine_codes", {"a": 2, "b": 1}),
                      ("path", "old"), ("path", "parsed/x.parquet"), (ROW_COUNT, 4)])
    store = store_from_uri(str(tmp_path))
    result = stage(store)
    assert result.stage == PARSE and result.figures[ROW_COUNT] == 4
    assert result.figures["posts"] == 5 and result.figures["quarantine_codes"] == {"a": 3, "b": 1}
    assert result.figures["path"] == "parsed/x.parquet"
    assert stage(store).figures == result.figures  # nothing carried over from the first run


@pytest.mark.parametrize("name", ["no_such_figure", "mode"])  # `mode` is the crawl's, not the parser's
def test_stat_refuses_a_figure_not_declared_for_its_stage(tmp_path, name):
    with pytest.raises(UndeclaredFigure, match=name):
        Counting([(name, 1)])(store_from_uri(str(tmp_path)))


def test_check_refuses_metadata_not_declared_for_the_check():
    stage = Counting([])
    stage.check("quarantined_share", True, {"share": 0.0})  # declared
    with pytest.raises(UndeclaredFigure, match="duplicates"):
        stage.check("quarantined_share", True, {"duplicates": 0})  # the unique_forum_id check's


def test_every_figure_is_described():
    kinds = {"int", "float", "bool", "text", "json", "path", "table", "md", "schema"}
    for key, f in FIGURES.items():
        assert f.type in kinds and f.description.strip() and f.where, key
    assert all(figures_of(s) for s in STAGES)


def _stage_sources() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(STAGES_DIR.glob("*.py"))}


def _literal_tables(tree: ast.Module) -> dict[str, set[str]]:
    """A module's top-level tables of figure names: ``NAME = {<literal>: <literal>, ...}`` -> the names."""
    tables = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Dict)
                and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.value.values)):
            tables[node.targets[0].id] = {v.value for v in node.value.values}
    return tables


def _table_lookup(arg: ast.expr | None, tables: dict[str, set[str]]) -> set[str] | None:
    """The names a ``TABLE.get(key, <literal default>)`` can give (every value and the default),
    None for any other expression."""
    if (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "get"
            and isinstance(arg.func.value, ast.Name) and arg.func.value.id in tables and len(arg.args) == 2
            and isinstance(arg.args[1], ast.Constant) and isinstance(arg.args[1].value, str)):
        return tables[arg.func.value.id] | {arg.args[1].value}
    return None


def _recorded_names() -> tuple[set[str], list[str]]:
    """Every figure name a stage records (`.stat(<name>, ...)`, or `.stat(TABLE.get(key, <name>), ...)`
    with `TABLE` a module-level dict of literal names), and the calls whose name is neither (the
    table could not be checked against them)."""
    names, dynamic = set(), []
    for path, tree in _stage_sources().items():
        tables = _literal_tables(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "stat":
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names.add(arg.value)
                elif isinstance(arg, ast.Name) and arg.id == "ROW_COUNT":
                    names.add(ROW_COUNT)
                elif (looked_up := _table_lookup(arg, tables)) is not None:
                    names |= looked_up
                else:
                    dynamic.append(f"{path.name}:{node.lineno}")
    return names, dynamic


def _string_constants(paths) -> set[str]:
    return {n.value for p in paths for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_every_declared_figure_is_recorded_somewhere_and_every_recorded_one_declared():
    """The table and the code agree: a figure recorded under a name the table does not declare, or a
    declared figure no stage records any more, fails here (which stage may record what, `stat`
    enforces at run time, and each stage's test asks for its declared figures)."""
    recorded, dynamic = _recorded_names()
    assert not dynamic, f"figure names must be literals (the table is checked against them): {dynamic}"
    assert recorded - set(FIGURES) == set()
    constants = _string_constants(STAGES_DIR.glob("*.py"))
    checks_keys = {k for k, f in FIGURES.items() if not set(f.where) & set(STAGES)}
    never = {k for k in FIGURES if k not in ADDED_BY_ASSETS and k not in recorded
             and not (k in checks_keys and k in constants)}
    assert never == set(), f"declared but never recorded: {sorted(never)}"
    added = _string_constants((ROOT / "reviewbench_assets").glob("*.py"))
    assert ADDED_BY_ASSETS <= added  # the Dagster layer's own keys (column schema, blocking checks)


def test_progress_observations_and_the_guard_emit_declared_keys():
    from datetime import UTC, datetime

    from reviewbench_assets.stages.figures import GUARD, PROGRESS
    from reviewbench_assets.stages.progress import ProgressEvent

    event = ProgressEvent("forums", 3, 10, 1.5, datetime(2026, 11, 27, tzinfo=UTC))
    assert set(event.metadata()) | {"run_id"} == set(figures_of(PROGRESS))  # + progress_sink's run_id
    assert set(figures_of(GUARD)) == {"failed_checks"}


def test_materialize_refuses_an_undeclared_key_and_shows_tables_and_paths():
    import dagster as dg

    from reviewbench_assets.dagster_step import materialize
    from reviewbench_assets.stages.stage import StageResult

    result = StageResult(PARSE, "demo-2026", {"path": "parsed/a.parquet", ROW_COUNT: 2,
                                              "preview": Table([{"forum_id": "a"}], ["forum_id"])})
    meta = materialize(result).metadata
    assert isinstance(meta["path"], dg.PathMetadataValue) and meta[ROW_COUNT] == 2
    assert meta["preview"].value.startswith("1 of 1 rows")
    with pytest.raises(UndeclaredFigure):
        materialize(result, extra={"surprise": 1})


def test_each_asset_shows_its_figures_with_their_descriptions():
    from reviewbench_assets.definitions import defs

    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        name = key.to_user_string()
        stage = "conference_split" if name.endswith("_split") and name != "reviewbench_split" else name
        table = graph.get(key).metadata["figures"].value
        for fig, f in figures_of(stage).items():
            assert f"| `{fig}` |" in table and f.description in table, (name, fig)
        for check in graph.get(key).check_keys:
            for fig in figures_of(check.name):
                assert f"| `{check.name}: {fig}` |" in table, (name, check.name, fig)
        assert ("| `observation: progress_eta` |" in table) == (name in REPORTS_PROGRESS), name


@pytest.mark.parametrize("entry, error", [
    ({"type": "int", "where": "no_such_stage", "description": "x"}, "no_such_stage"),
    ({"type": "integer", "where": PARSE, "description": "x"}, "type"),
    ({"type": "int", "where": PARSE, "description": "x", "when": "sometimes"}, "sometimes"),
    ({"type": "int", "where": PARSE}, "description"),
])
def test_the_figures_file_is_validated_when_it_loads(tmp_path, entry, error):
    """stages/figures.yaml is data: a key with an unknown stage, type or condition, or without its
    description, fails the import naming the file and the key, never reaches the UI."""
    import yaml

    from reviewbench_assets.stages.figures import load_figures

    path = tmp_path / "figures.yaml"
    path.write_text(yaml.safe_dump({"posts": {"type": "int", "where": PARSE, "description": "ok"},
                                    "broken_key": entry}))
    with pytest.raises(ValueError, match=error) as exc:
        load_figures(path)
    assert "broken_key" in str(exc.value) and str(path) in str(exc.value)
