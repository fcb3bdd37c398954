"""Full-text speed on equal terms (issue 36 items 5 and 6): ours against pymupdf4llm 2.0 on the same
PDFs, the same cores, the same clock.

* fulltext_speedup_equal_cores: value = our pages/s through the ``paper_markdown`` stage's path
  (``ocr_ray.pipeline.run_pipeline`` called as ``reviewbench_assets/stages/paper_text.py`` calls it:
  text-layer, no Ray address, no CPU cap, so it chooses its runner itself: Ray for more than
  ``LOCAL_MAX_PDFS`` PDFs, Ray's start-up inside the clock), in a fresh interpreter of its own;
  baseline = the peer's pages/s in a process pool as wide as Ray's workers (``os.cpu_count()``), from
  the pool's creation (the workers' imports inside the clock) to the last page's markdown. The whole
  ``python -m ocr_ray`` command on the same PDFs is reported beside it (``cli_*``). Goal >= 10.
* ocr_cli_one_pdf_seconds: one 10-page PDF through ``python -m ocr_ray`` (the whole command,
  interpreter start included; a few PDFs are converted in a local pool, without Ray:
  ``ocr_ray/local_pool.py``), baseline the peer's one-PDF command (``python -c``: import,
  ``to_markdown``, write), best of ``BENCH_SPEED_REPEATS`` each. Goal ratio <= 1.

Corpus (``build_corpus``): the full-text set's LaTeX papers (``benchmarks/fulltext/papers``, typeset with
pdflatex) joined into one ring of pages and cut into distinct ten-page PDFs (pages i..i+9 of the ring),
repeated under distinct names up to ``BENCH_SPEED_PDFS`` (default 200); built from the repository alone
in a temporary folder. The peer (AGPL: a benchmark peer only) runs in its own venv
(``benchmarks/fulltext_real/peers.py``; ``REVIEWBENCH_PEER_VENV_ROOT``).

The machine may be shared: every figure carries the 1-minute load average at its start and end.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import figure

N_PDFS = int(os.environ.get("BENCH_SPEED_PDFS", "200"))
REPEATS = int(os.environ.get("BENCH_SPEED_REPEATS", "3"))
PAGES_PER_PDF = 10
PEER_RELEASE = "2.0"
REPO = Path(__file__).resolve().parent.parent

# Ours, as the paper_markdown stage runs it: the clock starts at run_pipeline (Ray starts inside it).
_STAGE_SCRIPT = """
import json, sys, time
import pyarrow.fs as pafs
from ocr_ray.engines import get_engine
from ocr_ray.pipeline import PdfTask, choose_runner, run_pipeline
paths = json.loads(open(sys.argv[1]).read())
tasks = [PdfTask(f"p{i:04d}", p) for i, p in enumerate(paths)]
engine = get_engine("text-layer")
runner = choose_runner(len(tasks), engine, None, None)
t = time.perf_counter()
pages = errors = 0
for paper in run_pipeline(tasks, filesystem=pafs.LocalFileSystem(), engine=engine):
    pages += paper.num_pages
    errors += paper.error is not None
seconds = time.perf_counter() - t
print(json.dumps({"runner": runner, "pages": pages, "errors": errors, "seconds": seconds}))
"""

# The peer in a pool as wide as Ray's workers; the clock starts before the pool exists, each worker
# imports pymupdf4llm on its first PDF. Results are written as they come (pool.map keeps order).
_PEER_POOL_SCRIPT = """
import json, multiprocessing, sys, time
from concurrent.futures import ProcessPoolExecutor
def convert(path):
    import pymupdf4llm
    chunks = pymupdf4llm.to_markdown(path, page_chunks=True, show_progress=False)
    return [c["text"] for c in chunks]
if __name__ == "__main__":
    target, workers, paths = sys.argv[1], int(sys.argv[2]), json.loads(open(sys.argv[3]).read())
    t = time.perf_counter()
    pages = 0
    with open(target + ".jsonl", "w") as out, ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for path, texts in zip(paths, pool.map(convert, paths)):
            pages += len(texts)
            out.write(json.dumps({"path": path, "pages": len(texts), "chars": sum(map(len, texts)),
                                  "at": time.perf_counter() - t}) + "\\n")
            out.flush()
    with open(target, "w") as f:
        json.dump({"pages": pages, "seconds": time.perf_counter() - t}, f)
"""

# The peer's one-PDF command, as a user would write it.
_PEER_ONE_SCRIPT = """
import json, sys
import pymupdf4llm
chunks = pymupdf4llm.to_markdown(sys.argv[1], page_chunks=True, show_progress=False)
with open(sys.argv[2], "w") as f:
    json.dump([c["text"] for c in chunks], f)
"""


def cut_ring(sources: list[Path], out_dir: Path, n: int, pages: int = PAGES_PER_PDF) -> list[Path]:
    """``n`` PDFs of ``pages`` pages in ``out_dir``: the sources' pages in order form a ring, PDF k holds
    ring pages k, k+1, ... (mod the ring's length) for k below the ring's length, and the later ones
    repeat the first under distinct names (``speed_<k>.pdf``)."""
    import pypdfium2 as pdfium

    out_dir.mkdir(parents=True, exist_ok=True)
    ring = pdfium.PdfDocument.new()
    try:
        for src in sources:
            doc = pdfium.PdfDocument(str(src))
            try:
                ring.import_pages(doc)
            finally:
                doc.close()
        total = len(ring)
        if total == 0:
            raise ValueError(f"no pages in {[str(s) for s in sources]}")
        distinct = []
        for k in range(min(n, total)):
            cut = pdfium.PdfDocument.new()
            try:
                cut.import_pages(ring, [(k + i) % total for i in range(pages)])
                path = out_dir / f"speed_{k:04d}.pdf"
                cut.save(str(path))
            finally:
                cut.close()
            distinct.append(path)
    finally:
        ring.close()
    paths = list(distinct)
    for k in range(len(distinct), n):
        path = out_dir / f"speed_{k:04d}.pdf"
        path.write_bytes(distinct[k % len(distinct)].read_bytes())
        paths.append(path)
    return paths


def build_corpus(workdir: Path, n: int) -> tuple[list[Path], str]:
    """The benchmark's PDFs and a sentence saying what they are."""
    from benchmarks.common import page_count
    from benchmarks.fulltext.harness import build_set

    docs = build_set(workdir / "latex", variants=("digital",))
    sources = [d.pdf for d in docs]
    ring = sum(page_count(p) for p in sources)
    paths = cut_ring(sources, workdir / "pdfs", n)
    what = (f"{n} PDFs x {PAGES_PER_PDF} pages: the full-text set's {len(sources)} LaTeX papers (pdflatex, "
            f"{ring} pages) cut into {min(n, ring)} distinct ten-page PDFs (pages i..i+9 of the {ring} in a ring), "
            "repeated under distinct names")
    return paths, what


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "replica"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _timed(cmd: list[str], timeout: float) -> tuple[float, subprocess.CompletedProcess]:
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=_env(), timeout=timeout)
    seconds = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])} ... exited {out.returncode}: {out.stderr[-1500:]}")
    return seconds, out


def _log(what: str, result) -> None:
    print(json.dumps({"measured": what, "result": result, "load": os.getloadavg()[0]}), file=sys.stderr, flush=True)


def measure_stage(paths_file: Path) -> dict:
    _, out = _timed([sys.executable, "-c", _STAGE_SCRIPT, str(paths_file)], timeout=3 * 3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure_cli(pdf_dir: Path, output: Path) -> dict:
    """The whole ``python -m ocr_ray`` command: seconds, pages and errors from its output."""
    seconds, _ = _timed([sys.executable, "-m", "ocr_ray", "--pdf-dir", str(pdf_dir), "--output", str(output)],
                        timeout=3 * 3600)
    rows = [json.loads(line) for line in output.read_text().splitlines() if line.strip()]
    return {"seconds": seconds, "pages": sum(r["num_pages"] for r in rows),
            "errors": sum(r.get("error") is not None for r in rows), "papers": len(rows)}


def measure_peer_pool(python: Path, paths_file: Path, workers: int, target: Path) -> dict:
    command_seconds, _ = _timed([str(python), "-c", _PEER_POOL_SCRIPT, str(target), str(workers), str(paths_file)],
                                timeout=6 * 3600)
    return {**json.loads(target.read_text()), "command_seconds": command_seconds}


def run() -> list[dict]:
    from benchmarks.fulltext_real import peers

    cpus = os.cpu_count() or 1
    workers = cpus  # Ray's workers on a local cluster: one per CPU
    load_start = os.getloadavg()[0]
    python = peers.ensure(PEER_RELEASE)
    with tempfile.TemporaryDirectory(prefix="bench_speed_") as tmp:
        tmp = Path(tmp)
        paths, corpus = build_corpus(tmp, N_PDFS)
        paths_file = tmp / "paths.json"
        paths_file.write_text(json.dumps([str(p) for p in paths]))
        one_dir = tmp / "one"
        one_dir.mkdir()
        (one_dir / "ten.pdf").write_bytes(paths[0].read_bytes())

        cli_one, peer_one = [], []
        for i in range(REPEATS):  # alternated, so both meet the same load
            s, _ = _timed([sys.executable, "-m", "ocr_ray", "--pdf-dir", str(one_dir), "--output",
                           str(tmp / f"one_{i}.jsonl")], timeout=600)
            cli_one.append(s)
            _log("cli_one", s)
            s, _ = _timed([str(python), "-c", _PEER_ONE_SCRIPT, str(one_dir / "ten.pdf"), str(tmp / f"peer_one_{i}.json")],
                          timeout=600)
            peer_one.append(s)
            _log("peer_one", s)

        stage = measure_stage(paths_file)
        _log("stage", stage)
        cli = measure_cli(tmp / "pdfs", tmp / "cli.jsonl")
        _log("cli", cli)
        peer = measure_peer_pool(python, paths_file, workers, tmp / "peer_pool.json")
        _log("peer_pool", peer)
    load = {"cpus": cpus, "workers": workers, "load_average_1min_start": round(load_start, 2),
            "load_average_1min_end": round(os.getloadavg()[0], 2)}

    ours = stage["pages"] / stage["seconds"]
    peer_rate = peer["pages"] / peer["seconds"]
    cli_rate = cli["pages"] / cli["seconds"]
    speed = figure(
        "fulltext_speedup_equal_cores", round(ours, 2), "pages/s", round(peer_rate, 3), goal=">= 10",
        baseline_kind=f"pymupdf4llm {PEER_RELEASE} (to_markdown, page_chunks) in a process pool of {workers} workers",
        ours_runner=stage["runner"], ours_seconds=round(stage["seconds"], 2), ours_pages=stage["pages"],
        ours_errors=stage["errors"], peer_seconds=round(peer["seconds"], 2), peer_pages=peer["pages"],
        peer_command_seconds=round(peer["command_seconds"], 2),
        cli_pages_per_s=round(cli_rate, 2), cli_seconds=round(cli["seconds"], 2), cli_pages=cli["pages"],
        cli_errors=cli["errors"], cli_ratio=round(cli_rate / peer_rate, 2), pdfs=len(paths), corpus=corpus,
        note=("clock: first PDF in to last page out; ours = run_pipeline as the paper_markdown stage calls it (the "
              "runner it chooses for this many PDFs; Ray's start inside the clock), in its own interpreter; cli = the "
              "whole python -m ocr_ray command; peer = its pool from creation to the last markdown, workers' imports "
              "included"),
        **load)
    one = figure(
        "ocr_cli_one_pdf_seconds", round(min(cli_one), 2), "s", round(min(peer_one), 2), goal="<= 1",
        baseline_kind=f"pymupdf4llm {PEER_RELEASE} run as a command (python -c: import, to_markdown, write)",
        ours_runs=[round(s, 2) for s in cli_one], peer_runs=[round(s, 2) for s in peer_one], pages=PAGES_PER_PDF,
        note=f"whole commands, interpreter start included; best of {REPEATS} each, alternated", corpus=corpus, **load)
    return [speed, one]


if __name__ == "__main__":
    for fig in run():
        print(json.dumps(fig))
