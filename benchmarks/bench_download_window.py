"""The window a kill can still take a received download in (issue 38.7, docs/storage.md "Downloads"):
from the recv() that brings an answer's last body byte into the process to the write after which a
re-run takes the answer from its staging (stages/pdf_fetch.py `fetch_staged`, its files io/pdf_files.py).

The PDFs of an iclr-2020 replica (API v1, `/pdf?id=`, FaultConfig(slow_ms) as bench_kill_resume),
fetched by 8 threads as the PDF stage's pool does, each through `fetch_staged`. Per download, in its
thread: the time of its last non-empty `socket.recv_into` (the last body byte read: every byte is in
the process, the server sees the answer delivered), of the body's last write into
`pdf_staging/<key>.bin` (since the record precedes the body, this write makes the answer one a
re-run takes), and of the completing record's write (body hash; before, the record followed the
body and this write made it complete). Instrumentation only wraps those calls; restored after.

Figures: download_unkept_window_us_p90 (value: to the body's last write; baseline: to the completing
record, what it was), and its median and max as fields; answers_read_with_their_headers: those whose
body came in the recv() that read the headers (the window then runs from the headers through
`requests`' handling of the answer)."""
from __future__ import annotations

import os
import socket
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from benchmarks.common import figure

N_FORUMS = int(os.environ.get("DOWNLOAD_WINDOW_FORUMS", "48"))
SLOW_MS = int(os.environ.get("DOWNLOAD_WINDOW_SLOW_MS", "150"))
PK = "iclr-2020"


def _measure() -> list[tuple[int, int, float, float]]:
    """(bytes, recv calls, us to the body's last write, us to the completing record) per download."""
    from openreview_replica import FaultConfig, ReplicaServer, build_fixtures
    from resources.openreview_api import OpenReviewApi
    from resources.store import store_from_uri
    from reviewbench_assets.io import pdf_files
    from reviewbench_assets.io.pdf_files import PdfFiles
    from reviewbench_assets.stages import pdf_fetch

    tl = threading.local()
    real_recv_into, real_stream, real_record = socket.socket.recv_into, pdf_files.direct_stream, pdf_files._record

    def recv_into(self, buf, *args, **kwargs):
        n = real_recv_into(self, buf, *args, **kwargs)
        if n:
            tl.last_recv, tl.recvs = time.perf_counter(), getattr(tl, "recvs", 0) + 1
        return n

    class _Timed:
        def __init__(self, out):
            self.out = out

        def write(self, chunk):
            self.out.write(chunk)
            tl.last_body_write = time.perf_counter()

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.out.close()
            return False

    def stream(store, path):
        out = real_stream(store, path)
        return _Timed(out) if path.endswith(".bin") else out

    def record(store, meta_path, rec):
        real_record(store, meta_path, rec)
        if "sha256" in rec:
            tl.completed = time.perf_counter()

    fx = build_fixtures([PK], seed=0, n_forums=N_FORUMS)
    notes = [n for n in fx.venues[PK].submissions if (n.get("content") or {}).get("pdf")]
    rows: list[tuple[int, int, float, float]] = []
    socket.socket.recv_into, pdf_files.direct_stream, pdf_files._record = recv_into, stream, record
    try:
        with ReplicaServer(fx, port=0) as rep:
            rep.set_faults(FaultConfig(slow_ms=SLOW_MS))
            # one login on API v2 serves the v1 host too (as OpenReviewResource does)
            v2 = OpenReviewApi(rep.api_v2_url, "v2", rep.username, rep.password, max_attempts=2, timeout_s=20)
            api = OpenReviewApi(rep.api_v1_url, "v1", None, None, token=v2.token, max_attempts=2, timeout_s=20)
            store = store_from_uri(tempfile.mkdtemp(prefix="download_window_"))

            def one(note: dict) -> None:
                tl.recvs = 0
                data = pdf_fetch.fetch_staged(api, PdfFiles(store), f"k-{note['id']}", "/pdf", {"id": note["id"]})
                rows.append((len(data), tl.recvs, (tl.last_body_write - tl.last_recv) * 1e6,
                             (tl.completed - tl.last_recv) * 1e6))

            with ThreadPoolExecutor(8) as pool:
                list(pool.map(one, notes))
    finally:
        socket.socket.recv_into, pdf_files.direct_stream, pdf_files._record = real_recv_into, real_stream, real_record
    return rows


def _p(values: list[float], q: float) -> float:
    v = sorted(values)
    return round(v[min(len(v) - 1, int(q * len(v)))], 1)


def run() -> list[dict]:
    load = os.getloadavg()[0]
    rows = _measure()
    now, before = [r[2] for r in rows], [r[3] for r in rows]
    common = {"partition": PK, "downloads": len(rows), "slow_ms": SLOW_MS, "threads": 8,
              "load_avg_1m_at_start": round(load, 2),
              "bytes": [min(r[0] for r in rows), max(r[0] for r in rows)]}
    return [
        figure("download_unkept_window_us_p90", _p(now, 0.9), "us", _p(before, 0.9), **common,
               median_us=round(statistics.median(now), 1), max_us=round(max(now), 1),
               baseline_median_us=round(statistics.median(before), 1), baseline_max_us=round(max(before), 1),
               note="recv() of an answer's last body byte to the write after which a re-run takes it: the "
                    "body's last write (record before the body); baseline: the completing record's write "
                    "(the record followed the body before)"),
        figure("answers_read_with_their_headers", sum(1 for r in rows if r[1] == 1), "downloads", len(rows),
               **common, note="bodies that came in the recv() that read the headers (one recv in all)"),
    ]


if __name__ == "__main__":
    from benchmarks.common import record as record_figures
    record_figures(run())
