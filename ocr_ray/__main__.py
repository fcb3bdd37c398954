"""python -m ocr_ray: OCR a folder or manifest of PDFs into a JSONL of papers.

    python -m ocr_ray --pdf-dir pdfs/ --output papers.jsonl
    python -m ocr_ray --manifest tasks.jsonl --output papers.jsonl --resume --ray-address auto

Rows go to ``<output>.partial`` as they finish (flushed each paper), which is
renamed to ``<output>`` at the end. ``--resume`` keeps the rows of an earlier
output *and* of an interrupted run's ``.partial``, and skips their forum ids.

A few PDFs (at most ``ocr_ray.pipeline.LOCAL_MAX_PDFS``) with a single-stage engine (``text-layer``)
and no ``--ray-address`` are converted in a local process pool, without starting Ray; ``--ray``
forces Ray, ``--no-ray`` the local pool (``ocr_ray.pipeline.choose_runner``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict
from itertools import chain
from pathlib import Path

import pyarrow.fs as pafs

from ocr_ray.engines import get_engine, known_engines
from ocr_ray.pipeline import LOCAL_MAX_PDFS, PdfTask, choose_runner, ensure_ray, run_pipeline


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m ocr_ray", description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--pdf-dir", type=Path, help="every *.pdf in DIR; forum id = file stem")
    source.add_argument(
        "--manifest",
        type=Path,
        help="JSONL with forum_id and pdf_path (relative paths: from the manifest's folder; "
        "URIs such as s3://bucket/key: read through pyarrow)",
    )
    parser.add_argument("--output", type=Path, required=True, help="JSONL, one paper per line")
    parser.add_argument("--resume", action="store_true", help="skip forum ids already written")
    parser.add_argument("--engine", default="text-layer",
                        help=f"default: %(default)s; also: {', '.join(e for e in known_engines() if e != 'text-layer')}")
    parser.add_argument("--ray-address", default=None, help="'auto', 'ray://head:10001'; default: local Ray")
    parser.add_argument("--num-cpus", type=int, default=None,
                        help="CPUs of a local Ray, or worker processes of the local pool (default: all)")
    parser.add_argument("--ray", action=argparse.BooleanOptionalAction, default=None,
                        help=f"--ray: always start or join Ray; --no-ray: a local process pool (text-layer only); "
                             f"default: the local pool for up to {LOCAL_MAX_PDFS} PDFs with text-layer and "
                             "no --ray-address, else Ray")
    return parser.parse_args(argv)


def tasks_from_dir(pdf_dir: Path) -> list[PdfTask]:
    return [PdfTask(path.stem, str(path.resolve())) for path in sorted(pdf_dir.glob("*.pdf"))]


def tasks_from_manifest(manifest: Path) -> list[PdfTask]:
    tasks = []
    with manifest.open() as lines:
        for line in lines:
            if line.strip():
                entry = json.loads(line)
                path = entry["pdf_path"]
                if "://" not in path:
                    path = str((manifest.parent / path).resolve())
                tasks.append(PdfTask(str(entry["forum_id"]), path))
    return tasks


def load_tasks(args: argparse.Namespace) -> list[PdfTask]:
    """The PDFs to convert; a missing or empty ``--pdf-dir``/``--manifest`` (or a manifest line
    without ``forum_id``/``pdf_path``) is an error: ``SystemExit`` with a message, exit status 1.
    A listed PDF that does not exist is not: it becomes that paper's ``error``."""
    if args.pdf_dir is not None:
        if not args.pdf_dir.is_dir():
            raise SystemExit(f"error: --pdf-dir {args.pdf_dir}: no such directory")
        tasks = tasks_from_dir(args.pdf_dir)
        if not tasks:
            raise SystemExit(f"error: --pdf-dir {args.pdf_dir}: no *.pdf files in it")
        return tasks
    if not args.manifest.is_file():
        raise SystemExit(f"error: --manifest {args.manifest}: no such file")
    try:
        tasks = tasks_from_manifest(args.manifest)
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise SystemExit(f"error: --manifest {args.manifest}: bad line ({type(exc).__name__}: {exc}); "
                         "each line must be a JSON object with forum_id and pdf_path") from None
    if not tasks:
        raise SystemExit(f"error: --manifest {args.manifest}: no tasks in it")
    return tasks


def split_filesystem(tasks: list[PdfTask]) -> tuple[pafs.FileSystem | None, list[PdfTask]]:
    """Turn URI paths (s3://bucket/key) into one pyarrow filesystem + plain paths."""
    uri_tasks = [task for task in tasks if "://" in task.pdf_path]
    if not uri_tasks:
        return None, tasks
    schemes = {task.pdf_path.split("://", 1)[0] for task in tasks}
    if len(uri_tasks) != len(tasks) or len(schemes) != 1:
        raise SystemExit("manifest mixes local paths and URIs (or several schemes); split it")
    filesystem, _ = pafs.FileSystem.from_uri(tasks[0].pdf_path)
    return filesystem, [PdfTask(t.forum_id, t.pdf_path.split("://", 1)[1]) for t in tasks]


def _complete_lines(path: Path) -> Iterable[str]:
    """Lines of a JSONL that parse; an interrupted write leaves a torn last line."""
    if not path.exists():
        return
    with path.open() as lines:
        for line in lines:
            try:
                json.loads(line)
            except json.JSONDecodeError:
                continue
            yield line if line.endswith("\n") else line + "\n"


def start_partial(output: Path, resume: bool) -> tuple[Path, set[str]]:
    """Create ``<output>.partial`` holding every row kept from before; return done ids."""
    partial = output.with_name(output.name + ".partial")
    fresh = partial.with_name(partial.name + ".tmp")
    done: set[str] = set()
    with fresh.open("w") as sink:
        if resume:
            # The partial comes first: it is newer than the output it will replace.
            for line in chain(_complete_lines(partial), _complete_lines(output)):
                forum_id = json.loads(line)["forum_id"]
                if forum_id not in done:
                    done.add(forum_id)
                    sink.write(line)
    os.replace(fresh, partial)
    return partial, done


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        engine = get_engine(args.engine)
        engine.check_available()  # fail before reading inputs or starting Ray
        if args.ray is False:
            choose_runner(0, engine, args.ray_address, use_ray=False)  # the engine can do without Ray
    except (ValueError, NotImplementedError) as exc:
        raise SystemExit(f"error: {exc}") from None
    tasks = load_tasks(args)
    filesystem, tasks = split_filesystem(tasks)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    partial, done = start_partial(args.output, args.resume)
    todo = [task for task in tasks if task.forum_id not in done]
    runner = choose_runner(len(todo), engine, args.ray_address, args.ray)
    print(f"{len(tasks)} PDFs, {len(tasks) - len(todo)} already done, {len(todo)} to do"
          + (f" ({'Ray' if runner == 'ray' else 'local process pool'})" if todo else ""), file=sys.stderr)
    pages, errors, elapsed = ocr_into(partial, todo, filesystem, args, runner) if todo else (0, 0, 0.0)
    os.replace(partial, args.output)
    print(
        f"wrote {args.output}: {len(todo)} papers ({errors} errors), {pages} pages in {elapsed:.1f} s",
        file=sys.stderr,
    )
    return 0


def ocr_into(partial: Path, todo: list[PdfTask], filesystem, args, runner: str = "ray") -> tuple[int, int, float]:
    """Append one JSON line per paper to ``partial``; return pages, errors, seconds."""
    from tqdm import tqdm

    started_ray = False
    if runner == "ray":
        from ray.data import DataContext
        from ray.util.debug import log_once

        # Our bar replaces Ray Data's (two bars on one terminal garble each other);
        # spending the log_once key silences Ray's "progress bars disabled" warning.
        DataContext.get_current().enable_progress_bars = False
        log_once("ray_data_progress_manager_disabled")
        # Start Ray before the clock, so pages/s measures work, not cluster start-up.
        started_ray = ensure_ray(args.ray_address, args.num_cpus)
    started = time.monotonic()
    pages = errors = 0
    try:
        papers = run_pipeline(todo, filesystem, engine=args.engine, ray_address=args.ray_address,
                              num_cpus=args.num_cpus, use_ray=runner == "ray")
        with partial.open("a") as sink, tqdm(total=len(todo), unit="paper", file=sys.stderr) as bar:
            for paper in papers:
                sink.write(json.dumps(asdict(paper), ensure_ascii=False) + "\n")
                sink.flush()  # a crash loses at most the paper being written
                pages += paper.num_pages
                errors += paper.error is not None
                bar.update(1)
                bar.set_postfix(pages_per_s=f"{pages / (time.monotonic() - started):.1f}", errors=errors)
    finally:
        if started_ray:
            import ray

            ray.shutdown()
    return pages, errors, time.monotonic() - started


if __name__ == "__main__":
    sys.exit(main())
