"""The PDF stage run as the asset runs it, with what the tests read back: its figures and checks,
and the records it wrote (`submissions/<pk>.parquet`, crawl order)."""
from __future__ import annotations

from dataclasses import dataclass

from reviewbench_assets.stages.pdf_stage import PdfStage
from reviewbench_assets.stages.stage import StageResult


@dataclass
class PdfRun:
    result: StageResult
    records: list[dict]

    @property
    def figures(self) -> dict:
        return self.result.figures

    @property
    def resumed(self) -> int:
        return self.figures["forums_resumed"]

    @property
    def todo(self) -> int:
        return self.figures["forums_done_this_run"]

    @property
    def redone(self) -> set[str]:
        return set(self.figures["redone_forums"])


def run_pdf_stage(venue, store, api, scrape, **options) -> PdfRun:
    result = PdfStage(venue, api, scrape, **options)(store)
    return PdfRun(result, store.read_parquet(result.figures["path"]).to_pylist())
