"""olmOCR-Bench's KaTeX rendering on Debian's chromium, olmocr's code unchanged.

olmocr's ``katex/render.py`` launches its browser with Playwright's ``chromium.launch()``, i.e.
Playwright's own downloaded Chromium, which ``playwright install`` cannot fetch here (and CI installs
Debian's ``chromium`` anyway, ``make system-deps-demo``). ``use_debian_chromium`` wraps
``BrowserType.launch`` so that, when the caller names no executable, ``/usr/bin/chromium``
(``$OLMOCR_CHROMIUM``) is used.

Imports nothing of the project: ``benchmarks/fulltext_real/olmocr_run.py`` loads it inside olmocr's
own venv (by path), the unit tests' judge (``olmocr_judge.py``) and ``scripts/gen_mathabx_table.py``
in the project's. A script, not a benchmark, so that a script never imports a benchmark (issue 39.5).
"""
import functools
import os
from pathlib import Path

CHROMIUM = os.environ.get("OLMOCR_CHROMIUM", "/usr/bin/chromium")


def use_debian_chromium() -> None:
    from playwright.sync_api._generated import BrowserType

    launch = BrowserType.launch
    if getattr(launch, "_debian_chromium", False):  # wrapped already (idempotent)
        return

    @functools.wraps(launch)
    def launch_debian(self, *args, **kwargs):
        if not kwargs.get("executable_path") and Path(CHROMIUM).exists():
            kwargs["executable_path"] = CHROMIUM
        return launch(self, *args, **kwargs)

    launch_debian._debian_chromium = True
    BrowserType.launch = launch_debian
