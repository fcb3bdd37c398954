"""The OCR stage on a real two-node Ray cluster started with `ray start`, reached by its address.

The driver runs in a subprocess: other tests of the session may hold a local `ray.init()`.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.ocr.conftest import page_sentences, write_two_column_pdf
from tests.ops.procs import BIN, ROOT, free_port

pytestmark = [pytest.mark.slow, pytest.mark.ray]  # a two-node cluster

DRIVER = r"""
import json, sys, ray
from ocr_ray.pipeline import PdfTask, run_pipeline
address, pdf_dir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ray.init(address=address, logging_level="ERROR")
nodes = [nd for nd in ray.nodes() if nd["Alive"]]
cpus = ray.cluster_resources().get("CPU", 0)
ray.shutdown()
tasks = [PdfTask(f"paper{i}", f"{pdf_dir}/paper{i}.pdf") for i in range(n)]
out = [{"forum_id": p.forum_id, "markdown": p.markdown, "num_pages": p.num_pages, "error": p.error}
       for p in run_pipeline(tasks, ray_address=address)]
print("RESULT " + json.dumps({"nodes": len(nodes), "cpus": cpus, "papers": out}))
"""


def _ray(args: list[str], env: dict, timeout: int = 180) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "ray"), *args], env=env, capture_output=True, text=True, timeout=timeout)


def _node_pids(dirs: list[str]) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if any(d in cmd for d in dirs):
            pids.append(int(proc.name))
    return pids


def _stop_nodes(dirs: list[str]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _node_pids(dirs):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.time() + 15
        while _node_pids(dirs) and time.time() < deadline:
            time.sleep(0.3)
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)


def test_ocr_stage_through_a_two_node_cluster(tmp_path):
    n = 4
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for i in range(n):
        write_two_column_pdf(pdfs / f"paper{i}.pdf", f"paper{i}", num_pages=2 + i % 2)
    # short temp dirs: Ray's unix socket paths must stay under 107 bytes
    head_tmp = tempfile.mkdtemp(prefix="rbh", dir="/tmp")
    worker_tmp = tempfile.mkdtemp(prefix="rbw", dir="/tmp")
    port = free_port()
    env = {**os.environ, "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0", "RAY_USAGE_STATS_ENABLED": "0",
           "PYTHONPATH": str(ROOT),
           # token auth with this test's own token: ~/.ray/auth_token is shared with other local clusters
           "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": uuid.uuid4().hex}
    env.pop("RAY_ADDRESS", None)
    address = f"127.0.0.1:{port}"
    try:
        head = _ray(["start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}", "--num-cpus=1",
                     f"--temp-dir={head_tmp}", "--include-dashboard=false", f"--dashboard-port={free_port()}",
                     "--disable-usage-stats"], env)
        assert head.returncode == 0, head.stdout + head.stderr
        worker = _ray(["start", f"--address={address}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                       f"--temp-dir={worker_tmp}", "--disable-usage-stats"], env)
        assert worker.returncode == 0, worker.stdout + worker.stderr
        done = subprocess.run([sys.executable, "-c", DRIVER, address, str(pdfs), str(n)], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=420)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
        line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
        res = json.loads(line[len("RESULT "):])
    finally:
        # Not `ray stop`: it would stop every Ray cluster of this user (other sessions' too). Stop the
        # processes of these two nodes only: their command lines name this test's temp dirs.
        _stop_nodes([head_tmp, worker_tmp])
    assert not _node_pids([head_tmp, worker_tmp]), "Ray processes of the test cluster left running"
    assert res["nodes"] == 2 and res["cpus"] == 2, res
    papers = {p["forum_id"]: p for p in res["papers"]}
    assert sorted(papers) == [f"paper{i}" for i in range(n)]
    for i in range(n):
        p = papers[f"paper{i}"]
        assert p["error"] is None and p["num_pages"] == 2 + i % 2, p
        for page in range(1, p["num_pages"] + 1):
            left, right = page_sentences(f"paper{i}", page)
            assert left in p["markdown"] and right in p["markdown"]
            assert p["markdown"].index(left) < p["markdown"].index(right)  # column order kept
