"""How many places in the repository declare one edge of the data path (issue 39 item 2; goal 1).

An edge is "stage A reads the files of stage B" (A's asset depends on B's). At 0a3ff42 the fact was
written in four places, kept consistent by tests: the asset's `deps=[...]` literal, `Upstream.OWNERS`
(reader -> the assets whose files it opens), `OWNED_PATHS` (asset -> its files) and the architecture
test's `STAGE_OF` (module -> its stage). This counts, per edge, the places that write it, read from
the code (Python's `ast`), never run:

- a literal asset name in the `deps=` of A's asset decorator (string constants, `dg.AssetDep("B")`);
- a literal table from a reader of the IO layer to asset names (`Upstream.OWNERS`-like): one place
  per table in which a reader A calls names B;
- a literal table from an asset to its files (`OWNED_PATHS`-like) naming B, and a literal table from
  modules to stages (`STAGE_OF`-like) naming A: each restates who is who for the edge to be checked;
- a `reads = (...)` declaration of A's stage class naming a reader whose files B writes (the one place
  since issue 39: deps, owners and the classification are derived from it).

`edges` comes from the assets' Dagster deps at HEAD; the same edges are looked for in the tree at
`commit` (files read with `git show`), so the baseline is measured by the same code."""
from __future__ import annotations

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = ("reviewbench_assets/assets.py", "reviewbench_assets/changes.py", "reviewbench_assets/io/upstream.py",
         "reviewbench_assets/io/layout.py", "reviewbench_assets/data_path.py", "tests/test_architecture.py")


def _sources(commit: str | None) -> dict[str, str]:
    """The files that may hold a declaration: FILES and the stage modules, at `commit` (None: the tree)."""
    if commit is None:
        names = [*FILES, *(str(p.relative_to(ROOT)) for p in (ROOT / "reviewbench_assets/stages").glob("*.py"))]
        return {n: (ROOT / n).read_text(encoding="utf-8") for n in names if (ROOT / n).exists()}
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, "reviewbench_assets/stages/"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    out = {}
    for name in [*FILES, *(n for n in listed if n.endswith(".py"))]:
        shown = subprocess.run(["git", "show", f"{commit}:{name}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            out[name] = shown.stdout
    return out


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _asset_deps(tree: ast.AST) -> dict[str, set[str]]:
    """asset function name -> the asset names written in its decorator's deps."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call):
                    for kw in dec.keywords:
                        if kw.arg == "deps":
                            out[node.name] = _strings(kw.value)
    return out


def _tables(tree: ast.AST) -> list[dict[str, set[str]]]:
    """Dict literals (and `dict.fromkeys` entries inside them) from string keys to string collections."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) or k is None
                                                            for k in node.keys):
            table: dict[str, set[str]] = {}
            for k, v in zip(node.keys, node.values, strict=True):
                if k is None:  # `**dict.fromkeys([...], {...})`
                    if isinstance(v, ast.Call) and len(v.args) == 2:
                        for name in _strings(v.args[0]):
                            table[name] = _strings(v.args[1])
                elif isinstance(v, (ast.Tuple, ast.Set, ast.List)):
                    table[k.value] = _strings(v)
            if table:
                out.append(table)
    return out


def count(edges: list[tuple[str, str]], readers_of: dict[str, set[str]], module_of: dict[str, str],
          assets: set[str], served: dict[str, set[str]], commit: str | None = None) -> dict[str, int]:
    """'A <- B' -> places that declare it. `readers_of[A]`: the IO readers A's stage calls, `module_of[A]`:
    its stage module's name, `assets`: every asset (stage) name, `served[reader]`: the assets whose
    files a reader opens (and `served[B]` = {B} for a stage A runs after: `Stage.after`)."""
    sources = _sources(commit)
    deps: dict[str, set[str]] = {}
    tables: list[dict[str, set[str]]] = []
    reads: dict[str, set[str]] = {}  # stage module -> the readers its class declares
    for name, source in sources.items():
        tree = ast.parse(source)
        for k, v in _asset_deps(tree).items():
            k = "conference_split" if k == "_split" else k  # the `<split>_split` assets' builder
            deps[k] = deps.get(k, set()) | v
        tables += _tables(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in ("reads", "after")
                                                    for t in node.targets):
                reads.setdefault(Path(name).stem, set()).update(_strings(node.value))
    owners = [t for t in tables if set(t) & set().union(*readers_of.values()) and all(v <= assets for v in t.values())]
    files = [t for t in tables if len(set(t) & assets) >= 3 and all(v and not v & assets for v in t.values())]
    stage_of = [t for t in tables if len(t) >= 3 and all(v and v <= assets for v in t.values()) and t not in owners]
    out = {}
    for a, b in edges:
        readers = readers_of.get(a, set())
        n = int(b in deps.get(a, set()))  # the asset's deps literal
        n += sum(1 for t in owners if any(b in t.get(r, set()) for r in readers))  # reader -> owners
        n += sum(1 for t in files if b in t)  # B -> its files
        n += sum(1 for t in stage_of if a in t.get(module_of.get(a, ""), set()))  # A's module -> A
        n += int(any(b in served.get(r, set()) for r in reads.get(module_of.get(a, ""), set())))  # A's class
        out[f"{a} <- {b}"] = n
    return out


def measure(commit: str = "0a3ff42") -> dict:
    """Places per edge now and at `commit` (the issue's view), for the figure."""
    from reviewbench_assets.data_path import READER_OWNERS, STAGES, upstream_of

    edges = [(s.name, b) for s in STAGES for b in upstream_of(s) if s.part_of is None]
    readers_of = {s.name: set(s.reads) for s in STAGES}
    module_of = {s.name: s.__module__.rsplit(".", 1)[-1] for s in STAGES}
    assets = {s.part_of or s.name for s in STAGES}
    served = {**{r: set(o) for r, o in READER_OWNERS.items()}, **{a: {a} for a in assets}}
    now = count(edges, readers_of, module_of, assets, served)
    try:
        before = count(edges, readers_of, module_of, assets, served, commit=commit)
    except (subprocess.CalledProcessError, FileNotFoundError):  # no git history (an export)
        before = {}
    return {"now": now, "before": before, "commit": commit}
