"""The benchmark peer pymupdf4llm (AGPL: a peer only, never a project dependency), each release in a
virtual environment of its own (``var/peer-venv-<version>``), run in a subprocess.

Releases: ``1.28.2`` (the one issues 21 and 27 measured, kept for continuity) and ``2.0``, the newest
on PyPI (2026-11-27). pymupdf4llm 2.0 is an empty package: its code moved into ``pymupdf`` 2.x
(its METADATA says so), so 2.0 is installed as ``pymupdf4llm==2.0 pymupdf==2.0``; the module is
still ``import pymupdf4llm``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RELEASES = {"1.28.2": ("pymupdf4llm==1.28.2",), "2.0": ("pymupdf4llm==2.0", "pymupdf==2.0")}
VENV_ROOT = Path(os.environ.get("REVIEWBENCH_PEER_VENV_ROOT", "var"))

# Runs in the peer's venv: warm up on the first page of the first PDF (imports, layout model), then convert each path
# in turn (the list may repeat PDFs), page by page (``page_chunks=True``), timing each call; writes
# JSON to the file named first (the peer prints advice of its own on stdout).
_SCRIPT = """
import json, sys, time
import pymupdf4llm
target, paths = sys.argv[1], sys.argv[2:]
pymupdf4llm.to_markdown(paths[0], pages=[0], show_progress=False)
out = []
for p in paths:
    t = time.perf_counter()
    chunks = pymupdf4llm.to_markdown(p, page_chunks=True, show_progress=False)
    out.append({"path": p, "pages": [c["text"] for c in chunks], "seconds": time.perf_counter() - t})
with open(target, "w") as f:
    json.dump(out, f)
"""


def name(release: str) -> str:
    return f"pymupdf4llm-{release}"


def ensure(release: str) -> Path:
    """The release's interpreter, creating its venv on first use."""
    venv = VENV_ROOT / f"peer-venv-{release}"
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import pymupdf4llm, importlib.metadata as m; print(m.version('pymupdf4llm'))"]
    if python.exists() and subprocess.run(probe, capture_output=True, text=True).stdout.strip() == release:
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *RELEASES[release]], check=True)
    return python


def run(python: Path, pdfs: list[Path]) -> list[dict]:
    """[{path, pages: [markdown per page], seconds}] in the order of ``pdfs``."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "peer.json"
        subprocess.run([str(python), "-c", _SCRIPT, str(target), *map(str, pdfs)], capture_output=True,
                       text=True, check=True, timeout=6 * 3600)
        return json.loads(target.read_text())
