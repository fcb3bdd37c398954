"""A temporary folder per browser run, owned by its process, so no Chromium profile outlives its run.

Playwright's driver makes Chromium's profile (`playwright_chromiumdev_profile-*`) and its artifacts
folder in its own temporary directory and deletes them when the browser closes; a run killed with -9
leaves them in `$TMPDIR`, one per kill (issue 29.5). The driver is therefore started with `TMPDIR`
pointing at a folder of our own, `rb-chromium-<host tag>.<pid>.<random>` (the owner token
of resources/store_publish.py), removed when the browser run ends; at the start of every browser run
the folders of processes of this host that no longer exist (or a day old, from another host) are
removed first.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from resources.store_publish import new_token, token_is_dead

PREFIX = "rb-chromium-"  # short: Chromium puts a unix socket (108 bytes at most) under it
_ENV_LOCK = __import__("threading").Lock()  # TMPDIR is process-wide: one driver start at a time


def remove_stale(parent: str | None = None) -> int:
    """Delete the browser folders of dead runs under `parent` (default: the temporary directory)."""
    parent = parent or tempfile.gettempdir()
    removed = 0
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            age = time.time() - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if token_is_dead(entry.name[len(PREFIX):], age):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += 1
    return removed


@contextmanager
def browser_tmp_dir(parent: str | None = None) -> Iterator[str]:
    """This run's folder (dead runs' folders removed first); deleted when the block ends."""
    parent = parent or tempfile.gettempdir()
    remove_stale(parent)
    path = os.path.join(parent, PREFIX + new_token())
    os.makedirs(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def tmpdir_env(path: str) -> Iterator[None]:
    """`TMPDIR=path` for a child process started inside the block (the Playwright driver)."""
    with _ENV_LOCK:
        old = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = path
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = old
