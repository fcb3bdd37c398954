"""The data path: its stages in the order the data flows, and every table derived from what each
declares (`Stage.reads`, `Stage.writes`, `Stage.after`, `Stage.part_of`; issue 39 item 1). An edge
(a stage reads another's files) is written once, in the reading stage's class; from it come

- `OWNED_PATHS`: stage -> the files it owns (`io.layout.paths.<name>`);
- `READER_OWNERS`: an IO-layer reader (`io.upstream.Upstream`) -> the stages whose files it opens;
- `upstream_of(stage)`: the assets a stage's asset depends on (reviewbench_assets/assets.py, changes.py);
- the architecture test's classification of the stage modules (tests/test_architecture.py).

Stages are named by their asset; `conference_split` is the `<split>_split` assets and the dataset
card, which share the split's records. Dagster-free."""
from __future__ import annotations

from reviewbench_assets.io.upstream import Upstream
from reviewbench_assets.stages.card_stage import CardStage
from reviewbench_assets.stages.change_log import ChangesStage
from reviewbench_assets.stages.crawl_stage import CrawlStage
from reviewbench_assets.stages.dialogue_stage import DialogueStage
from reviewbench_assets.stages.paper_text import MarkdownStage
from reviewbench_assets.stages.parse_stage import ParseStage
from reviewbench_assets.stages.pdf_stage import PdfStage
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from reviewbench_assets.stages.rows_stage import RowsStage
from reviewbench_assets.stages.split_stage import SplitStage
from reviewbench_assets.stages.stage import Stage

STAGES: tuple[type[Stage], ...] = (CrawlStage, ParseStage, ChangesStage, PdfStage, MarkdownStage, DialogueStage,
                                   ResubmissionsStage, RowsStage, SplitStage, CardStage)


def owner(stage: type[Stage]) -> str:
    """The stage whose files `stage` writes: its own, or the one it is part of."""
    return stage.part_of or stage.name


def _owned_paths() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for stage in STAGES:
        out[owner(stage)] = tuple(dict.fromkeys(out.get(owner(stage), ()) + stage.writes))
    return out


OWNED_PATHS = _owned_paths()
_OWNER_OF_PATH = {name: stage for stage, names in OWNED_PATHS.items() for name in names}
READER_OWNERS: dict[str, tuple[str, ...]] = {
    reader: tuple(sorted({_OWNER_OF_PATH[name] for name in names})) for reader, names in Upstream.OPENS.items()}


def upstream_of(stage: type[Stage]) -> tuple[str, ...]:
    """The stages (assets) `stage`'s asset depends on, in flow order: the owners of what it reads and
    what it runs after (the card runs after the conference splits, whose files it shares)."""
    wanted = ({o for reader in stage.reads for o in READER_OWNERS[reader]} - {owner(stage)}) | set(stage.after)
    return tuple(dict.fromkeys(owner(s) for s in STAGES if owner(s) in wanted))
