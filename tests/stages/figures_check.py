"""What every stage test asks of the figures a stage run recorded: each declared figure of the stage
(and each declared metadata key of its checks) is there, unless the table says it is recorded only
under a condition; that nothing undeclared is recorded, `Stage.stat` and `Stage.check` enforce."""
from __future__ import annotations

from reviewbench_assets.stages.figures import figures_of
from reviewbench_assets.stages.stage import StageResult

# Declared keys the Dagster layer adds (reviewbench_assets/dagster_step.py), not the stages.
ADDED_BY_ASSETS = frozenset({"dagster/column_schema", "blocks_downstream", "how_to_override", "run_id",
                             "failed_checks"})


def expected(where: str, conditions: tuple[str, ...] = ()) -> set[str]:
    return {k for k, f in figures_of(where).items() if k not in ADDED_BY_ASSETS and (not f.when or f.when in conditions)}


def assert_every_figure(result: StageResult, *conditions: str) -> None:
    """`conditions`: the `when`s of stages/figures.yaml that held in this run (their figures are expected too)."""
    missing = expected(result.stage, conditions) - set(result.figures)
    assert not missing, f"{result.stage} declares figures it did not record: {sorted(missing)}"
    for c in result.checks:
        missing = expected(c.name, conditions) - set(c.metadata)
        assert not missing, f"{result.stage}'s check {c.name} declares metadata it did not record: {sorted(missing)}"
