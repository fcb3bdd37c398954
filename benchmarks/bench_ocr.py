"""OCR pipeline figures on CPU: Ray overhead, memory flatness, character error rate per engine.

* text_layer_ray_vs_bare: pages/s per core of the text-layer engine through Ray (2 CPUs) vs a bare
  pypdfium2 loop (1 process) on the same PDFs, same run (goal >= 0.8).
* ocr_memory_ratio_1000_vs_10: peak RSS of the driver + every Ray process (sampled each 0.1 s
  from /proc) while the pipeline streams 1,000 PDFs vs 10 PDFs (goal <= 1.2).
* cer_<engine>[_scanned]: character error rate against the known text of generated two-column
  PDFs, and of their scanned twins (pages rasterised at 1288 px, wrapped without a text layer).
"""
from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.common import figure
from ocr_ray.pipeline import PdfTask, run_pipeline

N_RAY = int(os.environ.get("BENCH_OCR_PDFS", "300"))
PAGES = 8


def _pdfs(root: Path, n: int, pages: int) -> list[PdfTask]:
    from tests.ocr.conftest import write_two_column_pdf

    root.mkdir(parents=True, exist_ok=True)
    proto = write_two_column_pdf(root / "proto.pdf", "proto", pages).read_bytes()
    tasks = []
    for i in range(n):
        path = root / f"p{i:05d}.pdf"
        path.write_bytes(proto)
        tasks.append(PdfTask(f"p{i:05d}", str(path)))
    return tasks


def _bare(tasks: list[PdfTask]) -> tuple[int, float]:
    import pypdfium2 as pdfium

    from ocr_ray.engines import normalize_page_text, page_text_layer

    t0, pages = time.perf_counter(), 0
    for task in tasks:
        doc = pdfium.PdfDocument(Path(task.pdf_path).read_bytes())
        for i in range(len(doc)):
            page = doc[i]
            normalize_page_text(page_text_layer(page))
            page.close()
            pages += 1
        doc.close()
    return pages, time.perf_counter() - t0


def _tree_rss() -> int:
    """RSS (bytes) of this process and every descendant (Ray's raylet, GCS and workers), from /proc."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            parent[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    tree, frontier = {os.getpid()}, [os.getpid()]
    while frontier:
        pid = frontier.pop()
        for child, ppid in parent.items():
            if ppid == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(pid, 0) for pid in tree)


def _run_measured(tasks, engine="text-layer") -> tuple[int, float, int]:
    peak, stop = [0], threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], _tree_rss())
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    t0 = time.perf_counter()
    sampler.start()
    pages = sum(p.num_pages for p in run_pipeline(tasks, engine=engine))
    elapsed = time.perf_counter() - t0
    stop.set()
    sampler.join()
    return pages, elapsed, peak[0]


def _cer(got: str, want: str) -> float:
    a, b = " ".join(got.split()), " ".join(want.split())
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1] / max(1, len(b))


def _cer_figures(root: Path) -> list[dict]:
    from tests.ocr.conftest import page_sentences, write_two_column_pdf
    from tests.ocr.test_engines import scan_pdf

    pages = 3
    digital = write_two_column_pdf(root / "cer.pdf", "cerpaper", pages)
    scanned = scan_pdf(digital, root / "cer_scanned.pdf")
    want = []
    for n in range(1, pages + 1):
        for sentence in page_sentences("cerpaper", n):
            want.append("\n".join([sentence] + [f"filler line {f} of this column" for f in range(3)]))
    want_text = "\n".join(want)
    out = []
    for engine in ("text-layer", "rapidocr", "auto"):
        for label, path in (("", digital), ("_scanned", scanned)):
            paper = next(iter(run_pipeline([PdfTask("cer", str(path))], engine=engine)))
            got = paper.markdown.replace("\n\n---\n\n", "\n")
            out.append(figure(f"cer_{engine}{label}", round(_cer(got, want_text), 4), "cer", 0.05,
                              pages=pages, pages_by_engine=paper.pages_by_engine, error=paper.error,
                              note="generated two-column paper with known text; scanned = 1288 px JPEG, "
                                   "no text layer"))
    return out


def run() -> list[dict]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            tasks = _pdfs(root / "many", 1000, PAGES)
            list(run_pipeline(tasks[:4]))  # warm-up: worker processes exist before the clock
            bare_pages, bare_s = _bare(tasks[:N_RAY])
            ray_pages, ray_s, _ = _run_measured(tasks[:N_RAY])
            bare_rate, ray_rate = bare_pages / bare_s, ray_pages / ray_s / 2
            figs = [figure("text_layer_ray_vs_bare", round(ray_rate / bare_rate, 3), "ratio", 0.8,
                           ray_pages_per_s_per_core=round(ray_rate, 1),
                           bare_pages_per_s_per_core=round(bare_rate, 1), pdfs=N_RAY, pages=ray_pages,
                           ray_cpus=2)]
            _, _, peak10 = _run_measured(tasks[:10])
            pages1000, s1000, peak1000 = _run_measured(tasks)
            figs.append(figure("ocr_memory_ratio_1000_vs_10", round(peak1000 / peak10, 3), "ratio", 1.2,
                               peak_rss_10_mib=round(peak10 / 2**20), peak_rss_1000_mib=round(peak1000 / 2**20),
                               pages_1000=pages1000, seconds_1000=round(s1000, 1)))
            figs += _cer_figures(root)
            return figs
    finally:
        ray.shutdown()


if __name__ == "__main__":
    import json
    for fig in run():
        print(json.dumps(fig))
