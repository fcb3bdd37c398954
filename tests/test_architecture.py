"""The code's structure as a test: layer contracts (import-linter, configured in pyproject.toml),
no import cycles, no underscore names imported across modules, no oversized production module,
and ruff's pyflakes rules; one data path (no stage imports another's modules or builds its paths).
Reads the code; runs nothing of it."""
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


# --- one data path: a stage reads the stages before it through the IO layer (issue 28.1) -------------

# What stages share: the stage base and its results, the figures table, progress.
# They know no stage's files. (The Parquet and JSON-lines readers, the check verdicts, the corpus shard
# names and the partition's run attempt are the IO layer's.)
SHARED_STAGE_MODULES = {"stage", "figures", "progress"}
ASSET_MODULES = {"assets", "changes"}


def _short(mod: str) -> str:
    return mod.rsplit(".", 1)[-1]


def _stage_modules(mods: dict[str, Path]) -> dict[str, Path]:
    """reviewbench_assets.stages.* and the asset modules, by full name."""
    return {m: p for m, p in mods.items()
            if (m.startswith("reviewbench_assets.stages.") and p.name != "__init__.py")
            or m in {f"reviewbench_assets.{a}" for a in ASSET_MODULES}}


def _paths_used(path: Path) -> set[str]:
    """Every `paths.<name>` a module refers to (`paths`: the namespace of reviewbench_assets.io.layout)."""
    used = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "paths":
            used.add(node.attr)
    return used


def _stage_of() -> dict[str, set[str]]:
    """Each module of reviewbench_assets/stages and each asset module -> the stage(s) it belongs to,
    derived from the stages' declarations (reviewbench_assets/data_path.py), never written here: the
    module that defines a stage's class is that stage's; a helper module is the stage's whose modules
    import it; an asset module wires the stages it imports."""
    from reviewbench_assets.data_path import STAGES, owner

    mods = _modules()
    imports = {m: {t for t, _ in ts} for m, ts in _imports(mods).items()}
    of = {_short(s.__module__): {owner(s)} for s in STAGES}
    helpers = {_short(m) for m in _stage_modules(mods)} - set(of) - SHARED_STAGE_MODULES - ASSET_MODULES
    changed = True
    while changed:  # a helper belongs to the stages whose modules (or their helpers) import it
        changed = False
        for mod in _stage_modules(mods):
            mine = of.get(_short(mod), set())
            if _short(mod) in ASSET_MODULES or not mine:
                continue
            for target in imports.get(mod, ()):
                if _short(target) in helpers and not mine <= of.setdefault(_short(target), set()):
                    of[_short(target)] |= mine
                    changed = True
    for mod in ASSET_MODULES:
        of[mod] = set().union(*(of.get(_short(t), set()) for t in imports.get(f"reviewbench_assets.{mod}", ())
                                if _short(t) not in ASSET_MODULES | SHARED_STAGE_MODULES))
    return of


def test_every_stage_module_belongs_to_one_stage_or_is_shared():
    stage_of = _stage_of()
    stage_mods = {_short(m) for m in _stage_modules(_modules())}
    assert stage_mods - set(stage_of) - SHARED_STAGE_MODULES == set(), "a module no stage imports"
    assert set(stage_of) & SHARED_STAGE_MODULES == set()
    helpers = set(stage_of) - ASSET_MODULES
    assert {m: s for m in helpers if len(s := stage_of[m]) != 1} == {}, "a module of two stages"


def test_every_path_has_one_owning_stage():
    from reviewbench_assets.data_path import OWNED_PATHS, STAGES
    from reviewbench_assets.io.layout import SHARED_PATHS, paths

    names = [n for n in vars(paths) if not n.startswith("_") and (callable(getattr(paths, n)) or n.isupper())]
    owned = [n for ns in OWNED_PATHS.values() for n in ns] + list(SHARED_PATHS)
    assert sorted(owned) == sorted(names)  # each once
    assert set(OWNED_PATHS) == {s.part_of or s.name for s in STAGES}


def test_every_declared_read_is_a_reader_of_the_io_layer():
    from reviewbench_assets.data_path import STAGES
    from reviewbench_assets.io.upstream import Upstream

    assert {f"{s.name} reads {r}" for s in STAGES for r in s.reads if r not in Upstream.OPENS} == set()
    assert {n for names in Upstream.OPENS.values() for n in names} - {n for s in STAGES for n in s.writes} == set()


def test_no_stage_imports_another_stages_module():
    """A stage's modules import their own stage's modules, the shared ones and the IO layer: never
    another stage's reader or writer (what the split used to do with the dialogue stage's writer)."""
    mods = _modules()
    imports = _imports(mods)
    stage_of = _stage_of()
    bad = []
    for mod in _stage_modules(mods):
        mine = stage_of.get(_short(mod))
        for target, _name in imports.get(mod, ()):
            if not target.startswith("reviewbench_assets.stages.") or _short(target) in SHARED_STAGE_MODULES:
                continue
            if mine is None or not (stage_of.get(_short(target), set()) & mine):
                bad.append(f"{mod} ({'shared' if mine is None else '/'.join(sorted(mine))}) imports {target}")
    assert bad == []


def test_no_stage_spells_a_path_template():
    """A stage names its files by what it declares (`outputs.path("parsed")`), never by the template
    (`paths.parsed(pk)`): the IO layer spells every path (issue 39 item 1)."""
    mods = _modules()
    bad = [f"{m} uses paths.{n}" for m, p in _stage_modules(mods).items() for n in sorted(_paths_used(p))]
    assert bad == []


def test_no_stage_opens_the_raw_filesystem_for_writing():
    """A stage writes its files through the IO layer (io/stage_io.py: a publication's staged writers, its
    own resume files; io/pdf_files.py: the PDF stage's downloads staged in place), never
    `fs.open_output_stream` itself (issue 39 item 1)."""
    mods = _modules()
    bad = sorted(_short(m) for m, p in _stage_modules(mods).items()
                 if "open_output_stream" in p.read_text(encoding="utf-8"))
    assert bad == []


def _reaches_the_store(path: Path) -> list[str]:
    """Where a module reaches the storage itself: a `Store` (the type, a `store` variable, the IO
    layer's private `_store` of an `Outputs`) or a raw filesystem (`.fs`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("store", "_store", "fs"):
            found.append(f".{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.Name) and node.id in ("Store", "SnapshotStore", "store"):
            found.append(f"{node.id} (line {node.lineno})")
        elif isinstance(node, ast.arg) and node.arg == "store":
            found.append(f"argument store (line {node.lineno})")
        elif isinstance(node, ast.ImportFrom) and any(a.name in ("Store", "SnapshotStore") for a in node.names):
            found.append(f"import of {node.module} (line {node.lineno})")
    return found


def test_no_stage_reaches_the_store_or_its_filesystem():
    """The base hands a stage only what it declared: it reads through `Inputs` and writes through the
    narrow operations of `Outputs` (a publication of its declared files, a lock, its own state read
    back), never the Store nor its filesystem (issue 39 item 1)."""
    mods = _stage_modules(_modules())
    reaching = {_short(m): _reaches_the_store(p) for m, p in mods.items()
                if _short(m) not in ASSET_MODULES | {"stage"}}  # the assets and the base wire the store in
    assert {m: where[:3] for m, where in reaching.items() if where} == {}


def test_the_store_check_finds_a_stage_that_reaches_the_store(tmp_path):
    """The check above fails on each way a stage could reach the storage (it is not vacuous)."""
    for line in ("x = outputs._store", "x = outputs.store.fs", "def f(store): pass", "from resources.store import Store",
                 "x = view.fs.open_input_file(p)"):
        module = tmp_path / "stage.py"
        module.write_text(line + "\n", encoding="utf-8")
        assert _reaches_the_store(module), line


def test_no_stage_builds_another_stages_paths():
    """A stage builds the paths of its own outputs only; what it reads of another stage comes through
    reviewbench_assets/io (`Upstream`); who owns a path is what the stages declare they write. Shared modules build
    only the shared paths (check verdicts)."""
    from reviewbench_assets.data_path import OWNED_PATHS
    from reviewbench_assets.io.layout import SHARED_PATHS

    mods = _modules()
    stage_of = _stage_of()
    bad = []
    for mod, path in _stage_modules(mods).items():
        allowed = set(SHARED_PATHS)
        for stage in stage_of.get(_short(mod), ()):
            allowed |= set(OWNED_PATHS[stage])
        bad += [f"{mod} builds paths.{name}" for name in sorted(_paths_used(path) - allowed)]
    others = [m for m in mods if m.startswith("reviewbench_assets.") and m not in _stage_modules(mods)
              and not m.startswith("reviewbench_assets.io")]
    bad += [f"{m} builds paths.{n}" for m in others for n in sorted(_paths_used(mods[m]))]
    assert bad == []


def test_a_stage_reads_only_what_it_declares():
    """Every IO-layer read a stage makes (`inputs.<reader>()`, the readers of `Upstream`) is one its
    stage declares in `reads` (so its asset depends on the reader's owners directly: the asset's deps
    are derived from the same declaration): no undeclared read, and no return to the files of a stage
    further back. (The base refuses an undeclared read at run time too: io/stage_io.py `Inputs`.)"""
    from reviewbench_assets.data_path import STAGES, owner
    from reviewbench_assets.io.upstream import Upstream

    declared: dict[str, set[str]] = defaultdict(set)
    for s in STAGES:
        declared[owner(s)] |= set(s.reads)
    stage_of = _stage_of()
    mods = _modules()
    bad, calls = [], 0
    for mod, path in _stage_modules(mods).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in Upstream.OPENS):
                continue
            calls += 1
            mine = set().union(*(declared[s] for s in stage_of.get(_short(mod), ())))
            if node.func.attr not in mine:
                bad.append(f"{mod} reads {node.func.attr}, which {'/'.join(sorted(stage_of.get(_short(mod), ())))} "
                           "does not declare in its `reads`")
    assert calls >= 10  # the readers are found (the stages read through the IO layer)
    assert bad == []


def test_each_asset_depends_on_what_its_stage_declares():
    """The assets' dependencies are the declarations' (reviewbench_assets/data_path.py upstream_of)."""
    from reviewbench_assets.data_path import STAGES, owner, upstream_of
    from reviewbench_assets.definitions import ASSETS

    deps: dict[str, set[str]] = defaultdict(set)
    for a in ASSETS:
        for key in a.keys:
            name = key.to_user_string()
            stage = "conference_split" if name.endswith("_split") and name != "reviewbench_split" else name
            deps[stage] |= {"conference_split" if d.to_user_string().endswith("_split")
                            and d.to_user_string() != "reviewbench_split" else d.to_user_string()
                            for d in a.asset_deps[key]}
    assert {s.name: deps[s.name] for s in STAGES} == {s.name: set(upstream_of(s)) for s in STAGES}
    assert all(owner(s) in {s.name, "conference_split"} for s in STAGES)
