"""The code's structure as a test: layer contracts (import-linter, configured in pyproject.toml),
no import cycles, no underscore names imported across modules, no oversized production module,
and ruff's pyflakes rules. Reads the code; runs nothing of it."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["reviewbench_assets", "resources", "partitions", "ocr_ray", "replica/openreview_replica"]
MAX_LINES = 450  # "under ~400 lines", with a margin for a module's docstring and imports


def _modules() -> dict[str, Path]:
    mods = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            rel = path.relative_to((ROOT / pkg).parent).with_suffix("")
            name = ".".join(rel.parts)
            mods[name.removesuffix(".__init__")] = path
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[tuple[str, str | None]]]:
    """module -> {(imported module, imported name or None)} for our own modules only."""
    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    out: dict[str, set] = defaultdict(set)
    for mod, path in mods.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if (t := resolve(a.name)):
                        out[mod].add((t, None))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                for a in node.names:
                    full = f"{base}.{a.name}"
                    t = full if full in mods else resolve(base)
                    if t:
                        out[mod].add((t, None if t == full else a.name))
    return out


def test_layer_contracts_hold():
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.fail("import-linter is not installed (it is in the dev extra)")
    run = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_no_import_cycles():
    mods = _modules()
    edges = {m: {t for t, _ in ts if t != m} for m, ts in _imports(mods).items()}
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            # a package __init__ re-exporting its own modules is not a cycle of design
            real = [c for c in comp if not mods[c].name == "__init__.py"]
            if len(real) > 1:
                cycles.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for m in mods:
        if m not in index:
            strong(m)
    assert cycles == []


def test_no_private_names_cross_modules():
    mods = _modules()
    bad = [f"{m} imports {name} from {t}" for m, ts in _imports(mods).items() for t, name in ts
           if name and name.startswith("_") and not name.startswith("__")]
    assert bad == []


def test_no_oversized_module():
    big = {str(p.relative_to(ROOT)): n for p in _modules().values()
           if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_LINES}
    assert big == {}


def test_ruff_passes():
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.fail("ruff is not installed (it is in the dev extra)")
    run = subprocess.run([exe, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


# --- the repository stands alone (issue 20) ---------------------------------------------------------

_STRAY = ("*.json", "*.log", "*.prof", "*.txt", "*.out", "*.tmp", "*profile*", "scratch*", "*.orig", "*.rej",
          "*.pyc", "core", "core.*", "nohup*")


def _git(*args: str) -> list[str] | None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        return None
    out = subprocess.run([git, *args], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.splitlines() if out.returncode == 0 else None


def test_no_stray_file_at_the_root():
    """Profiles, logs and scratch files at the root (tracked, or untracked and not ignored) fail the
    build: they end up committed by the next `git add -A`."""
    import fnmatch

    tracked, untracked = _git("ls-files"), _git("ls-files", "--others", "--exclude-standard")
    if tracked is None or untracked is None:
        pytest.skip("not a git checkout")
    root_files = {f for f in tracked + untracked if "/" not in f}
    stray = sorted(f for f in root_files if any(fnmatch.fnmatch(f, pat) for pat in _STRAY))
    assert stray == [], f"stray files at the repository root: {stray}"


def test_nothing_points_outside_the_repository():
    """A user's clone has no ../shared: every document the README or code cites is under docs/."""
    tracked = _git("ls-files")
    if tracked is None:
        pytest.skip("not a git checkout")
    this = Path(__file__).resolve().relative_to(ROOT).as_posix()
    needle = "../" + "shared"  # spelled apart so this file does not match itself
    bad = [f for f in tracked if f != this and f.endswith((".md", ".py", ".yaml", ".toml", ".yml"))
           and needle in (ROOT / f).read_text(encoding="utf-8", errors="replace")]
    assert bad == [], f"files pointing outside the repository ({needle}): {bad}"
