"""`vllm_pages_per_second_per_gpu` and `fulltext_pass_rate_vllm`: the `vllm` OCR engine on the GPUs of this
machine (the pass rate on the LaTeX set of ``bench_fulltext``; it replaced `cer_vllm`).

Runs only where a GPU is visible and the `gpu` extra (ray[llm] -> vLLM) is installed, with the model
reachable (Hugging Face hub or HF_HOME cache); elsewhere it says why and records nothing (a CPU run
of a GPU figure would be a fake). Settings come from the engine's environment variables
(REVIEWBENCH_VLLM_MODEL, _BATCH_SIZE, _MAX_TOKENS, _GPUS, _CONCURRENCY) and are written with the
figure. The model is loaded by a warm-up run before the clock starts.

Goal (issue 4): at least 10 pages/s per H100; anchors: olmOCR-2 ~4 pages/s per H100, LightOnOCR-1B
5.7. The baseline of this absolute figure is that goal, so ratio >= 1 means it is met.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_ocr import PAGES, _pdfs
from benchmarks.common import device, figure
from ocr_ray import run_pipeline
from ocr_ray.engine_base import EngineNotAvailableError
from ocr_ray.vllm_engine import VllmEngine

GOAL_PAGES_PER_S_PER_GPU = 10.0
N_PDFS = int(os.environ.get("BENCH_VLLM_PDFS", "100"))  # 100 x 9 pages: ~1.5 min at the goal


def _fulltext_figure(root: Path, engine) -> dict:
    """The olmOCR-style pass rate of ``engine`` on the full-text set (``benchmarks/fulltext``), each
    paper through ``run_pipeline``; no peer in this run, so no baseline (compare with bench_fulltext)."""
    from benchmarks.fulltext import harness
    from ocr_ray.conversion import PdfTask

    docs = harness.build_set(root / "fulltext")

    def convert(pdf: Path):
        (paper,) = list(run_pipeline([PdfTask(pdf.stem, str(pdf))], engine=engine))
        return paper.markdown, paper.page_routes

    result = harness.evaluate(docs, "vllm", convert)
    return figure("fulltext_pass_rate_vllm", result["pass_rate"], "share of tests", None,
                  by_variant=result["by_variant"], by_category=result["by_category"], tests=result["tests"],
                  model=engine.model)


def unavailable_reason() -> str | None:
    if device() == "cpu":
        return "no GPU visible (nvidia-smi)"
    try:
        VllmEngine.from_env().check_available()
    except EngineNotAvailableError as exc:
        return str(exc)
    return None


def run() -> list[dict]:
    reason = unavailable_reason()
    if reason:
        print(f"bench_vllm_ocr skipped, nothing recorded: {reason}")
        return []
    import ray

    engine = VllmEngine.from_env()
    ray.init(include_dashboard=False)
    try:
        gpus = int(ray.cluster_resources().get("GPU", 0))
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            tasks = _pdfs(root / "many", N_PDFS, PAGES)
            list(run_pipeline(tasks[:2], engine=engine))  # model load, CUDA graphs: before the clock
            t0 = time.perf_counter()
            papers = list(run_pipeline(tasks, engine=engine))
            elapsed = time.perf_counter() - t0
            pages = sum(p.num_pages for p in papers)
            errors = sum(1 for p in papers if p.error)
            used = min(gpus, (engine.num_gpus or 1) * (engine.concurrency or 1)) or 1
            rate = pages / elapsed / used
            figs = [figure("vllm_pages_per_second_per_gpu", round(rate, 2), "pages/s/GPU",
                           GOAL_PAGES_PER_S_PER_GPU, baseline_is="the issue's goal per H100",
                           model=engine.model, batch_size=engine.batch_size, max_tokens=engine.max_tokens,
                           gpus_used=used, pages=pages, papers_failed=errors, seconds=round(elapsed, 1),
                           output_chars_per_page=round(sum(len(p.markdown) for p in papers) / max(pages, 1)))]
            figs.append(_fulltext_figure(root, engine))
            return figs
    finally:
        ray.shutdown()


if __name__ == "__main__":
    import json
    for fig in run():
        print(json.dumps(fig))
