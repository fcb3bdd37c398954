"""The data path of one partition, measured (issues 28 item 1, 39 item 2): the project modules, and
their lines, a reader must open to follow one venue-year's data from the crawl to its conference
split (outside `ocr_ray/`), how many places declare one edge of the path (goal 1), and whether a
stage goes back to the files of a stage before its direct upstream.

`data_path_modules` counted modules alone, and fell from 62 to 30 by merging files while the code
on the path did not shrink (issue 39); it is replaced by `data_path_modules_to_read` (modules, with
their lines as a field) and `data_path_lines_to_read` (the lines of those modules: what a reader
opens), and `edge_declaration_places` (benchmarks/edge_declarations.py: the most places any edge
is written in, read from the code; baseline: the same count at 0a3ff42, issue 39's view).

One venue-year of the OpenReview replica (iclr-2024, `BENCH_DATA_PATH_FORUMS` forums) is materialized
asset by asset, in process, with the default configuration (revision pages in chromium when it is
installed, the text-layer engine on local Ray, rule-based dialogues): `openreview_forums`,
`parsed_forums`, `initial_submission_pdfs`, `paper_markdown`, `rebuttal_dialogues`,
`reviewbench_split`, `iclr_split`. A profiler on every thread of this process (`sys.setprofile`,
`threading.setprofile`) records each module of `reviewbench_assets/`, `resources/` and
`partitions/` whose functions run while an asset materializes. Modules are imported before the
clock starts, so a module counts when its code runs on the data, not when it is imported; the replica,
the tests and `ocr_ray/` (Ray workers run in other processes) are not counted.

Returns: every read through the IO layer (`reviewbench_assets.io.upstream.Upstream`) is recorded with
the asset that made it; a read of a file whose owning asset is not among the reader's direct
dependencies is a return (`data_path_returns`, goal 0). On a tree without the IO layer only the
module count is measured.

Figures: `data_path_modules_to_read`, `data_path_lines_to_read` (the per-asset lists as extra
fields), `edge_declaration_places` and `data_path_returns`.

    .venv/bin/python -m benchmarks.run_all bench_data_path
"""
from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PK = "iclr-2024"
CHAIN = ("openreview_forums", "parsed_forums", "initial_submission_pdfs", "paper_markdown", "rebuttal_dialogues",
         "reviewbench_split", "iclr_split")
COUNTED = ("reviewbench_assets", "resources", "partitions")
FORUMS = int(os.environ.get("BENCH_DATA_PATH_FORUMS", "8"))


def _lines(module: str) -> int:
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = ROOT / module.replace(".", "/") / "__init__.py"
    return path.read_text(encoding="utf-8").count("\n")


def _module_of(filename: str) -> str | None:
    """`reviewbench_assets.stages.pdf_stage` for a project file that counts, else None."""
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.parts[0] not in COUNTED or rel.suffix != ".py":
        return None
    name = ".".join(rel.with_suffix("").parts)
    return name.removesuffix(".__init__")


class ModuleTrace:
    """The project modules whose functions run while it is on (every thread started meanwhile too)."""

    def __init__(self):
        self.modules: set[str] = set()
        self._files: dict[str, str | None] = {}

    def _profile(self, frame, event, _arg):
        if event != "call":
            return
        code = frame.f_code
        if code.co_name == "<module>":  # a module's top level: an import, not the data passing
            return
        name = self._files.get(code.co_filename, "")
        if name == "":
            name = self._files[code.co_filename] = _module_of(code.co_filename)
        if name is not None:
            self.modules.add(name)

    def __enter__(self) -> ModuleTrace:
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)
        threading.setprofile(None)


def _reader_owners() -> dict[str, tuple[str, ...]]:
    """IO-layer reader -> the assets whose files it opens: derived from the stages' declarations
    (reviewbench_assets/data_path.py) since issue 39, written in `Upstream.OWNERS` before."""
    try:
        from reviewbench_assets.data_path import READER_OWNERS
        return READER_OWNERS
    except ImportError:
        from reviewbench_assets.io.upstream import Upstream
        return Upstream.OWNERS


def _record_reads(reads: list[tuple[str, str]], current: list[str]) -> bool:
    """Wrap the IO layer's readers so each read is logged as (asset reading, reader); False on a tree
    without the IO layer."""
    try:
        from reviewbench_assets.io.upstream import Upstream
    except ImportError:
        return False
    for name in _reader_owners():
        method = getattr(Upstream, name, None)
        if method is None:
            continue

        def wrapped(self, *a, __m=method, __n=name, **kw):
            reads.append((current[0], __n))
            return __m(self, *a, **kw)

        setattr(Upstream, name, functools.wraps(method)(wrapped))
    return True


def measure() -> dict:
    import dagster as dg

    from openreview_replica import ReplicaServer, build_fixtures
    from reviewbench_assets.definitions import ASSETS
    from tests.e2e.conftest import replica_resources

    by_key = {a.key.to_user_string(): a for a in ASSETS}
    use_browser = shutil.which("chromium") is not None or Path("/usr/bin/chromium").exists()
    config = {"initial_submission_pdfs": {"config": {"use_browser": use_browser}}}
    reads: list[tuple[str, str]] = []
    current = [""]
    with_io = _record_reads(reads, current)
    per_asset: dict[str, list[str]] = {}
    seen: set[str] = set()
    fx = build_fixtures([PK], seed=0, n_forums=FORUMS)
    with ReplicaServer(fx, port=0) as rep, tempfile.TemporaryDirectory(prefix="bench_data_path_") as root:
        resources = replica_resources(rep, root)
        for asset in CHAIN:
            current[0] = asset
            run_config = {"ops": {k: v for k, v in config.items() if k == asset}}
            partitioned = by_key[asset].partitions_def is not None
            with ModuleTrace() as trace:
                result = dg.materialize([by_key[asset]], partition_key=PK if partitioned else None,
                                        resources=resources, run_config=run_config, raise_on_error=False)
            if not result.success:
                raise RuntimeError(f"{PK} {asset} failed")
            per_asset[asset] = sorted(trace.modules - seen)  # the modules this asset brings in
            seen |= trace.modules
    deps = {a: {k.to_user_string() for k in by_key[a].asset_deps[by_key[a].key]} for a in CHAIN}
    owners = {name: set(assets) for name, assets in _reader_owners().items()} if with_io else {}
    returns = sorted({f"{asset} reads {reader} ({'/'.join(sorted(owners[reader]))})"
                      for asset, reader in reads if not owners[reader] <= deps[asset]})
    return {"modules": sorted(seen), "per_asset": per_asset, "browser": use_browser, "with_io_layer": with_io,
            "returns": returns, "reads": sorted({f"{a}: {r}" for a, r in reads})}


def run() -> list[dict]:
    from benchmarks.common import figure
    from benchmarks.edge_declarations import measure as edge_places

    m = measure()
    by_package = {p: sum(1 for x in m["modules"] if x.split(".")[0] == p) for p in COUNTED}
    lines = {x: _lines(x) for x in m["modules"]}
    figs = [figure("data_path_modules_to_read", len(m["modules"]), "modules", None, partition=PK, papers=FORUMS,
                   chain=list(CHAIN), browser=m["browser"], by_package=by_package, lines=sum(lines.values()),
                   new_modules_per_asset=m["per_asset"],
                   note="project modules (reviewbench_assets, resources, partitions; not ocr_ray) whose functions "
                        "run while one partition goes from the crawl to its conference split: what a reader opens"),
            figure("data_path_lines_to_read", sum(lines.values()), "lines", None, partition=PK, modules=len(lines),
                   lines_per_module=dict(sorted(lines.items(), key=lambda kv: -kv[1])),
                   note="lines of those modules (docstrings and comments included: a reader reads them)")]
    edges = edge_places()
    figs.append(figure("edge_declaration_places", max(edges["now"].values()), "places",
                       max(edges["before"].values()) if edges["before"] else None, goal=1,
                       per_edge=edges["now"], per_edge_at_baseline=edges["before"], baseline_commit=edges["commit"],
                       note="the most places any edge of the data path (a stage reads another's files) is written "
                            "in: deps literals, reader->owner tables, owner->files tables, module->stage tables, "
                            "the stage class's reads/after (benchmarks/edge_declarations.py)"))
    if m["with_io_layer"]:
        figs.append(figure("data_path_returns", len(m["returns"]), "reads", None, partition=PK, goal=0,
                           returns=m["returns"], reads=m["reads"],
                           note="IO-layer reads of a file whose owning asset is not a direct dependency of the reader"))
    return figs


if __name__ == "__main__":
    import json

    for f in run():
        print(json.dumps(f, indent=1))
