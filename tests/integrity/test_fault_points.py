"""The kill test's placed stops (tests/faults/kill_points.py), installed from the test tree only:
unset they install nothing; set, the n-th time the named point is reached in the real PDF path
(stages/pdf_fetch.store_pdf) the whole process group is SIGKILLed; and the shipped packages carry no
kill hook at all (issue 28.5)."""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys

import pytest

from tests.faults.kill_points import KILL_VAR, POINTS, install

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = """
import sys
from tests.faults.kill_points import install
install()
from resources.store import store_from_uri
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages.pdf_fetch import store_pdf
from tests.faults.pdf import one_page_pdf

store = store_from_uri(sys.argv[1])
for i in range(1, 6):
    record = {"forum_id": f"f{i}", "note_id": f"f{i}", "pdf_url": f"/pdf?id=f{i}"}
    out = store_pdf(PdfFiles(store), record, one_page_pdf(f"paper {i}"), "single", f"/pdf?id=f{i}")
    assert out.get("pdf_sha256"), out
    print(i, flush=True)
"""


def _run(tmp_path, env_value: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != KILL_VAR}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    if env_value is not None:
        env[KILL_VAR] = env_value
    return subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "root")], env=env, capture_output=True,
                          text=True, timeout=120, cwd=ROOT,
                          start_new_session=True)  # its own group: the kill must not reach pytest


def test_unset_nothing_is_installed(tmp_path, monkeypatch):
    monkeypatch.delenv(KILL_VAR, raising=False)
    assert install() is None
    done = _run(tmp_path, None)
    assert done.returncode == 0 and done.stdout.split() == ["1", "2", "3", "4", "5"], done.stderr


def test_an_unknown_point_is_refused():
    with pytest.raises(ValueError, match="unknown point"):
        install("pdf_nowhere:1")


def test_the_nth_time_the_named_point_is_reached_the_group_is_killed(tmp_path):
    killed = _run(tmp_path / "a", "pdf_stored:3")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert killed.stdout.split() == ["1", "2"]  # the 3rd PDF was stored, its checkpoint never written
    assert len(list((tmp_path / "a/root/pdfs").rglob("*.pdf"))) == 3
    other = _run(tmp_path / "b", "pdf_source_written:1")
    assert other.returncode == -signal.SIGKILL and other.stdout == ""
    assert len(list((tmp_path / "b/root/pdf_sources").rglob("*.json"))) == 1  # source recorded ...
    assert not (tmp_path / "b/root/pdfs").exists()  # ... its PDF not stored yet
    assert set(POINTS) == {"pdf_source_written", "pdf_current_source_written", "pdf_stored"}


def test_the_shipped_packages_carry_no_kill_hook():
    for package in ("reviewbench_assets", "resources", "partitions"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            assert "killpg" not in text and KILL_VAR not in text, f"{path} carries a test's kill hook"
