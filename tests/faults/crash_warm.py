"""Imported by the crash-point suite's fork server (tests/faults/crash_trials.py): every module a
trial's processes use, so each forked trial starts with them loaded."""
from tests.faults.crash_trials import warm

warm()
