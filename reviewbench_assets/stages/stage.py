"""The one shape of every stage of the data path: the `Stage` base and the `StageResult` a run
returns. The contract between the stages and the asset layer: a stage records figures and checks,
the base merges them into a `StageResult`, the asset turns that into Dagster metadata
(`reviewbench_assets.dagster_step.materialize`), and the figures table (`stages/figures.py`) says what
every key means.

After datatrove's `PipelineStep` (src/datatrove/pipeline/base.py): a stage is configured by its
constructor (the partition it works on, its clients and options), does its work in
`run(inputs, outputs)` on what the base hands it (what it declared it reads and writes), and
records every figure it wants shown through one call, `stat(name, value)`, which the base merges
(numbers add up, counts per kind add up per kind, anything else is replaced). Checks are recorded the
same way (`check`). No stage builds a result type of its own. Dagster-free, like every stage."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Number
from typing import Any, ClassVar

from resources.store import Store
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.stages.figures import BLOCKING, declared


@dataclass
class CheckOutcome:
    name: str
    passed: bool
    metadata: dict[str, Any] = field(default_factory=dict)
    severity: str = "ERROR"  # "WARN": a failure is reported, not an error (a data-guarding check blocks)
    description: str | None = None  # what this result checked (the partition, the rule), shown in the UI


@dataclass
class StageResult:
    """What a stage run recorded: its figures (name -> value, every name declared in
    stages/figures.yaml) and the outcomes of its data checks."""
    stage: str
    key: str | None = None  # the partition (venue-year), the split; None for the card
    figures: dict[str, Any] = field(default_factory=dict)
    checks: list[CheckOutcome] = field(default_factory=list)

    def check(self, name: str) -> CheckOutcome:
        return next(c for c in self.checks if c.name == name)


# ---- the stage base ---------------------------------------------------------------------------

def _merged(old: Any, new: Any) -> Any:
    """A figure recorded twice: numbers add up, counts per kind add up per kind, anything else
    (text, lists, tables, a bool, None) is replaced by the newer value."""
    if isinstance(old, Number) and isinstance(new, Number) and not isinstance(old, bool) \
            and not isinstance(new, bool):
        return old + new
    if isinstance(old, dict) and isinstance(new, dict):
        return {**old, **{k: _merged(old[k], v) if k in old else v for k, v in new.items()}}
    return new


class Stage(ABC):
    """One step of the data path. Subclasses set `name` (the stage's name in stages/figures.yaml, the
    asset's name for the assets that are one stage), declare what they read and write, and implement
    `run`.

    The declaration is the one place an edge of the data path is written (issue 39 item 1): the
    asset's dependencies, who owns each file and the architecture test's classification are derived
    from it (reviewbench_assets/data_path.py), never written again.
    - `reads`: the inputs it takes from the stages before it, by the IO layer's reader
      (`io.upstream.Upstream`: `raw_forums`, `parsed_forums`, ...);
    - `writes`: the files it owns (`io.layout.paths.<name>`);
    - `after`: stages it runs after without reading their files (their blocking checks guard it);
    - `part_of`: the stage whose files it shares (the dataset card is part of the conference split)."""

    name: ClassVar[str]
    reads: ClassVar[tuple[str, ...]] = ()
    writes: ClassVar[tuple[str, ...]] = ()
    after: ClassVar[tuple[str, ...]] = ()
    part_of: ClassVar[str | None] = None
    # the run's config publishes data whose blocking checks fail, on purpose (dagster_step.GuardConfig)
    allow_failing_checks: bool = False

    def __init__(self, key: str | None = None):
        self.key = key  # what the run is about: a venue-year, a conference split; None for the card
        self._figures: dict[str, Any] = {}
        self._checks: list[CheckOutcome] = []

    @abstractmethod
    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        """Read the stage's inputs (`inputs.<reader>()`, only those it declares in `reads`), write its
        files (`outputs.path(<name>)`, only those it declares in `writes`), and record its figures
        (`stat`) and checks (`check`)."""

    def __call__(self, store: Store, inputs: Mapping[str, Any] | None = None) -> StageResult:
        """Run on `store`: the base hands the stage only what it declared. `inputs`: values of some
        declared inputs given in memory (by reader name) instead of read from the store."""
        self._figures, self._checks = {}, []
        self.run(Inputs(self.name, self.reads, store, self.key, inputs),
                 Outputs(self.name, self.writes, store, self.key))
        return StageResult(self.name, self.key, dict(self._figures), list(self._checks))

    @classmethod
    def outputs_in(cls, store: Store, key: str | None) -> Outputs:
        """The stage's outputs of partition `key` in `store`, for a tool or a test that writes them
        without running the stage (the stage's own writers take its `Outputs`)."""
        return Outputs(cls.name, cls.writes, store, key)

    def stat(self, name: str, value: Any = 1) -> None:
        """Record a figure: `stat("forums")` counts one, `stat("pages", 12)` adds 12,
        `stat("rules", {"initial": 1})` counts per kind, `stat("mode", "full")` sets a value."""
        declared(name, self.name)
        self._figures[name] = _merged(self._figures[name], value) if name in self._figures else value

    def figure(self, name: str, default: Any = 0) -> Any:
        """What this run recorded so far under `name` (a check reads the counts `stat` made at each event)."""
        return self._figures.get(name, default)

    def check(self, name: str, passed: bool, metadata: dict[str, Any], *, severity: str = "ERROR",
              description: str | None = None) -> None:
        """Record a data check's outcome; its metadata keys are declared like figures (under the check's name)."""
        for key in metadata:
            declared(key, name)
        self._checks.append(CheckOutcome(name, passed, metadata, severity, description))

    def stage_verdict(self, pub: Staging) -> None:
        """Stage the verdict of the blocking checks recorded so far into `pub`, the publication of the
        files they judged, so the verdict moves into place with its data, in one journal
        (io/verdicts.py `stage_verdict`, issue 38.3)."""
        failed = {c.name: c.description or c.name for c in self._checks if c.name in BLOCKING and not c.passed}
        pub.verdict(self.name, self.key, failed, self.allow_failing_checks)
