"""What each make target installs (`make -n -B`: the recipes, none executed): the demo, the UI and
`make dev` never build llama.cpp or install the test-only extras; `make test` installs everything."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _recipes(target: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("no make")
    done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("target", ["demo", "ui", "dev"])
def test_demo_targets_install_only_what_they_run(target):
    out = _recipes(target)
    assert "pip install -q -e . -e ./replica" in out  # the replica: its own distribution
    assert "[dev]" not in out and "CMAKE" not in out and "postgresql" not in out


def test_test_target_installs_everything():
    out = _recipes("test")
    assert "pip install -q -e '.[dev]' -e ./replica" in out and "postgresql tesseract-ocr" in out


@pytest.mark.parametrize("target", ["test", "test-fast"])
def test_test_targets_install_olmocr_without_its_requirements(target):
    """olmOCR-Bench's test classes judge the full-text unit tests: olmocr at the release pinned in
    pyproject.toml, `--no-deps` (its own requirements serve its pipeline; what its tests import is in
    extra `test`)."""
    import tomllib

    pin = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["reviewbench"]["olmocr"]
    [line] = [line for line in _recipes(target).splitlines() if "pip install -q --no-deps" in line]
    spec = subprocess.run(["bash", "-c", "echo " + line.split("--no-deps", 1)[1].strip()], cwd=ROOT,
                          capture_output=True, text=True, timeout=60).stdout.strip()
    assert spec == pin == "olmocr==0.4.27"


def test_fast_target_deselects_every_need_and_compiles_nothing():
    """`make test-fast` (issue 28.7): extra `test` (no llama.cpp build, no PostgreSQL), and pytest with
    a marker expression that leaves out every registered need; `make test` selects no marker."""
    import re
    import tomllib

    from tests.conftest import NEED_MARKERS, NEEDS_BY_FIXTURE

    out = _recipes("test-fast")
    assert "pip install -q -e '.[test]' -e ./replica" in out
    assert "[dev]" not in out and "CMAKE" not in out and "postgresql" not in out and "chromium" not in out
    [expr] = re.findall(r'pytest .*-m "([^"]+)"', out)
    assert expr == "not (" + " or ".join(NEED_MARKERS) + ")"
    # on two processes (pytest-xdist, extra `test`), a file to each so a module's fixtures are built once
    assert re.search(r"pytest .* -n \d+ --dist loadfile", out) and "FAST_WORKERS ?= 2" in (ROOT / "Makefile").read_text()
    assert any(d.startswith("pytest-xdist") for d in tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "project"]["optional-dependencies"]["test"])
    registered = {m.split(":")[0] for m in tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["pytest"]["ini_options"]["markers"]}
    assert registered == set(NEED_MARKERS) and set(NEEDS_BY_FIXTURE.values()) <= registered
    [full] = [line for line in _recipes("test").splitlines() if "-m pytest" in line]
    assert " -m " not in full.split("-m pytest", 1)[1]  # CI (`make test`) runs everything


def test_need_markers_follow_the_fixtures():
    """A test that asks for a need's fixture (Ray's, the browser's, the LLM server's) gets its marker
    from tests/conftest.py's collection hook, without anyone marking it; a plain test gets none."""
    from tests.conftest import NEEDS_BY_FIXTURE, pytest_collection_modifyitems

    class Item:
        def __init__(self, *fixtures):
            self.fixturenames, self.markers = ["tmp_path", *fixtures], []

        def add_marker(self, marker):
            self.markers.append(marker)

    items = [Item(f) for f in NEEDS_BY_FIXTURE] + [Item()]
    pytest_collection_modifyitems(None, items)
    assert [i.markers for i in items] == [[need] for need in NEEDS_BY_FIXTURE.values()] + [[]]


def test_the_production_wheel_holds_no_replica(tmp_path):
    """`reviewbench`'s wheel packages what exists and nothing of the replica (issue 20.7)."""
    import sys
    import zipfile

    src = tmp_path / "src"  # a copy of what a clone has (building in place would leave build/ behind)
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "var", "node_modules", "*.egg-info",
                                                              "build", "test-artifacts", "__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    [wheel] = tmp_path.glob("reviewbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.startswith("openreview_replica/")]
    assert {n.split("/")[0] for n in names if not n.startswith("reviewbench-")} == {
        "reviewbench_assets", "resources", "partitions", "ocr_ray"}
    assert "partitions/venues.yaml" in names
    assert "reviewbench_assets/domain/templates/dataset_card.md" in names  # the card's template


def test_demo_and_ui_share_the_instance_and_storage(monkeypatch, tmp_path):
    from scripts.demo_env import demo_env, demo_paths

    monkeypatch.setenv("REVIEWBENCH_DEMO_DIR", str(tmp_path))
    env = demo_env({"OPENREVIEW_API_V2_URL": "http://127.0.0.1:1"})
    assert env["DAGSTER_HOME"] == str(tmp_path / "dagster_home") == str(demo_paths()[0])
    assert env["REVIEWBENCH_STORAGE_ROOT"] == str(tmp_path / "storage")
    assert (tmp_path / "dagster_home" / "dagster.yaml").read_text() == (ROOT / "dagster.yaml").read_text()
    # `make dev` has its own instance and storage, never the demo's
    dev = _recipes("dev")
    assert "DAGSTER_HOME=" + str(ROOT / ".dagster_home") in dev and "var/demo" not in dev
