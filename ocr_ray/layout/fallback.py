"""A rule that fails costs its block, not the paper (issue 36 item 1).

Every rule of the layout step (furniture, tables, figure grids, reading order, headings,
paragraphs, display maths) runs through ``guarded``: when it raises, or runs past its time budget,
the block it was reading falls back to its plain text (or the rule's neutral answer: no heading,
no furniture removed), the page and the paper go on, and the paper's ``Fallbacks`` record says
which rule fell back, on which page and why (a reason code). Only a PDF that cannot be opened or
rendered at all is an error row (``ocr_ray.pdf_pages``).

Reason codes: ``raised`` (the rule raised; the exception's type and message are the detail),
``timeout`` (the rule ran past its budget). A paper's counts are keyed ``<rule>:<reason>``.

Time budgets are CPU seconds, kept with ``ITIMER_PROF`` (``SIGPROF``, not ``SIGALRM``, which
pytest-timeout and other tools own): a rule stuck in a Python loop burns CPU and is interrupted
between two bytecodes. They apply in a process's main thread only (Ray runs a task there, as does
the CLI); elsewhere, or when another handler owns ``SIGPROF`` (a profiler), rules run without a
budget. A hang inside C code (PDFium) is not interruptible here: the pipeline's per-PDF isolation
covers it (``ocr_ray.crash_rerun``).
"""
from __future__ import annotations

import _signal
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import TypeVar

T = TypeVar("T")

RAISED = "raised"
TIMEOUT = "timeout"
FALLBACK_RAISED = "fallback_raised"  # the fallback itself failed: the block is left out (counted)
OVERSIZE = "oversize"  # a block past what its rule is for (``skipped``): read plainly without trying

# CPU seconds a rule may take on one block (a formula, a table, a page's headings), on one page, and
# over a whole paper (furniture is found across pages). A real page takes milliseconds; these only
# bound the pathological case (a rule quadratic in a page of 20,000 glyphs).
BLOCK_SECONDS = 10.0
PAGE_SECONDS = 60.0
PAPER_SECONDS = 120.0


@dataclass(frozen=True)
class Fallback:
    """One block that fell back: the page (0-based; -1 for paper-wide rules), the rule, the reason
    code and what happened (the exception's type and message, cut)."""

    page: int
    rule: str
    reason: str
    detail: str


class Fallbacks:
    """A paper's record of the blocks that fell back (``recording`` makes it the current one)."""

    def __init__(self) -> None:
        self.items: list[Fallback] = []
        self.page = -1  # the page the layout step is on (set by ``compose_pages``)

    def note(self, rule: str, reason: str, detail: str) -> None:
        self.items.append(Fallback(self.page, rule, reason, detail[:200]))

    def as_records(self) -> list[dict]:
        return [asdict(f) for f in self.items]


def degraded_counts(records: list[dict]) -> dict[str, int]:
    """Fallback records (``Fallbacks.as_records``, a paper's ``fallbacks``) -> blocks per
    ``<rule>:<reason>``: the one spelling of the key that the paper, the stage's figure and the
    robustness benchmark count by."""
    return dict(Counter(f"{f['rule']}:{f['reason']}" for f in records))


_CURRENT: ContextVar[Fallbacks | None] = ContextVar("ocr_ray_fallbacks", default=None)


@contextmanager
def recording(fallbacks: Fallbacks) -> Iterator[Fallbacks]:
    """Make ``fallbacks`` the record that ``guarded`` notes into, for the block of this ``with``."""
    token = _CURRENT.set(fallbacks)
    try:
        yield fallbacks
    finally:
        _CURRENT.reset(token)


def current() -> Fallbacks | None:
    return _CURRENT.get()


def skipped(rule: str, reason: str, detail: str) -> None:
    """Note a block read plainly without running its rule (``OVERSIZE``)."""
    record = current()
    if record is not None:
        record.note(rule, reason, detail)


class RuleTimeout(Exception):  # noqa: N818 - raised by the alarm, caught by the guard that set it
    def __init__(self, owner: object):
        super().__init__("rule ran past its time budget")
        self.owner = owner


class _Budgets:
    """The deadlines of the guards running now (innermost last), one ``ITIMER_PROF`` set to the
    earliest. The alarm raises ``RuleTimeout`` for the outermost guard whose deadline has passed
    and that is still running its rule; inner guards let another guard's timeout through. The
    timer is set again only when the earliest deadline changes (a guard costs microseconds: the
    layout step runs thousands a paper)."""

    def __init__(self) -> None:
        self.stack: list[list] = []  # [deadline, owner, running]
        self.armed: float | None = None  # the deadline the timer is set for

    def usable(self) -> bool:
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
            return False
        handler = _signal.getsignal(signal.SIGPROF)
        if handler == self._on_alarm:
            return True
        if handler not in (signal.SIG_DFL, signal.SIG_IGN, None):
            return False  # a profiler owns SIGPROF: no budgets
        signal.signal(signal.SIGPROF, self._on_alarm)
        return True

    def push(self, owner: object, seconds: float) -> list | None:
        if not self.usable():
            return None
        entry = [time.process_time() + seconds, owner, True]
        self.stack.append(entry)
        if self.armed is None or entry[0] < self.armed:
            self._arm()
        return entry

    def pop(self, entry: list | None) -> None:
        if entry is None:
            return
        entry[2] = False
        if entry in self.stack:
            self.stack.remove(entry)
        if self.armed is not None and (entry[0] <= self.armed or not self.stack):
            self._arm()

    def _arm(self) -> None:
        running = [e[0] for e in self.stack if e[2]]
        self.armed = min(running) if running else None
        if self.armed is not None:
            signal.setitimer(signal.ITIMER_PROF, max(self.armed - time.process_time(), 0.001))
        else:
            signal.setitimer(signal.ITIMER_PROF, 0)

    def _on_alarm(self, _signum, _frame) -> None:
        now = time.process_time()
        expired = [e for e in self.stack if e[2] and e[0] <= now + 0.001]
        if expired:
            expired[0][2] = False  # it raises once; the guard pops it
            self._arm()
            raise RuleTimeout(expired[0][1])
        self._arm()


_BUDGETS = _Budgets()


def guarded(rule: str, run: Callable[[], T], fallback: Callable[[], T], *,
            seconds: float | None = None) -> T:
    """``run()``, or ``fallback()`` when it raises or takes more than ``seconds``; a fallback is
    noted in the current ``Fallbacks`` (``recording``). The fallback must be the block's plain
    reading; should it raise too, the guard notes that and re-raises to the next guard out.
    ``seconds``: CPU seconds (default ``BLOCK_SECONDS``; 0: no budget, for a rule bounded by its
    one line, run thousands of times a paper)."""
    seconds = BLOCK_SECONDS if seconds is None else seconds
    owner = object()
    entry = _BUDGETS.push(owner, seconds) if seconds > 0 else None
    try:
        try:
            return run()
        finally:
            if entry is not None:
                entry[2] = False  # from here on the alarm no longer interrupts this guard
    except RuleTimeout as exc:
        if exc.owner is not owner:
            raise
        reason, detail = TIMEOUT, f"over {seconds:g} s"
    except Exception as exc:  # noqa: BLE001 - the point: any failure of a rule costs its block
        reason, detail = RAISED, f"{type(exc).__name__}: {exc}"
    finally:
        _BUDGETS.pop(entry)
    record = current()
    if record is not None:
        record.note(rule, reason, detail)
    try:
        return fallback()
    except RuleTimeout:
        raise
    except Exception as exc:
        if record is not None:
            record.note(rule, FALLBACK_RAISED, f"{type(exc).__name__}: {exc}")
        raise
