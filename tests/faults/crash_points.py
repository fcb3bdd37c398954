"""Crash points enumerated from the code, not chosen (issue 29.4): a filesystem that counts every
mutating call the code makes (each staged write, rename, journal write, delete, folder made) and
kills the process -9 (`os._exit`, no cleanup) just before the k-th one. A clean run of an operation
gives its number of points N; a trial per k = 1..N kills a run there, then a reader opens the store
as every reader does (recovering first) and checks what it sees.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow.fs as pafs

PROJECT = Path(__file__).resolve().parents[2]
STAGE_CODE = str(PROJECT / "reviewbench_assets")  # where the publish sites are (tests/faults/publish_sites.py)

MUTATING = ("create_dir", "delete_dir", "delete_dir_contents", "delete_root_dir_contents", "delete_file",
            "move", "copy_file", "open_output_stream", "open_append_stream")


def stage_frames() -> tuple[tuple[str, int], ...]:
    """The stack's frames in the stage code, innermost first: (file relative to the project, line);
    what says which publish site of the code a filesystem call belongs to."""
    out, frame = [], sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(STAGE_CODE):
            out.append((str(Path(name).relative_to(PROJECT)), frame.f_lineno))
        frame = frame.f_back
    return tuple(out)


class CountingHandler(pafs.FileSystemHandler):
    """Delegates to `fs`; counts mutating calls in `calls` ((method, path) in order), with the stage
    frames that made each in `frames`; dies before the `kill_at`-th one (1-based; None: never),
    first writing that call to `report` (so the trial can tell it died where it was enumerated).
    `after(handler)` is called once each call that changes what a reader sees (a move, a copy, a
    delete) is done: the suite's snapshots of the states a run passes through."""

    def __init__(self, fs: pafs.FileSystem, kill_at: int | None = None, report: str | None = None,
                 after=None):
        self.fs, self.kill_at, self.report, self.after = fs, kill_at, report, after
        self.calls: list[tuple[str, str]] = []
        self.frames: list[tuple[tuple[str, int], ...]] = []

    def _point(self, method: str, path: str) -> None:
        if self.kill_at is not None and len(self.calls) + 1 == self.kill_at:
            if self.report:
                with open(self.report, "w") as f:
                    f.write(f"{method}\t{path}")
            os._exit(137)
        self.calls.append((method, path))
        self.frames.append(stage_frames())

    def _done(self) -> None:
        if self.after is not None:
            self.after(self)

    def __eq__(self, other):
        return isinstance(other, CountingHandler) and other.fs == self.fs

    def __ne__(self, other):
        return not self == other

    def get_type_name(self):
        return "counting"

    def normalize_path(self, path):
        return self.fs.normalize_path(path)

    def get_file_info(self, paths):
        return self.fs.get_file_info(paths)

    def get_file_info_selector(self, selector):
        return self.fs.get_file_info(selector)

    def create_dir(self, path, recursive):
        if self.fs.get_file_info(path).type != pafs.FileType.Directory:  # a no-op is no point
            self._point("create_dir", path)
        self.fs.create_dir(path, recursive=recursive)
        self._done()

    def delete_dir(self, path):
        self._point("delete_dir", path)
        self.fs.delete_dir(path)
        self._done()

    def delete_dir_contents(self, path, missing_dir_ok=False):
        self._point("delete_dir_contents", path)
        self.fs.delete_dir_contents(path, missing_dir_ok=missing_dir_ok)
        self._done()

    def delete_root_dir_contents(self):
        self._point("delete_root_dir_contents", "/")
        self.fs.delete_dir_contents("/", accept_root_dir=True)
        self._done()

    def delete_file(self, path):
        self._point("delete_file", path)
        self.fs.delete_file(path)
        self._done()

    def move(self, src, dest):
        self._point("move", f"{src} -> {dest}")
        self.fs.move(src, dest)
        self._done()

    def copy_file(self, src, dest):
        self._point("copy_file", f"{src} -> {dest}")
        self.fs.copy_file(src, dest)
        self._done()

    def open_input_stream(self, path):
        return self.fs.open_input_stream(path)

    def open_input_file(self, path):
        return self.fs.open_input_file(path)

    def open_output_stream(self, path, metadata):
        self._point("open_output_stream", path)
        return self.fs.open_output_stream(path, metadata=metadata)

    def open_append_stream(self, path, metadata):
        self._point("open_append_stream", path)
        return self.fs.open_append_stream(path, metadata=metadata)

