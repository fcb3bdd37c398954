"""The platform's code location with the kill points of `tests/faults/kill_points.py` installed
(from `REVIEWBENCH_KILL_AT`): `dagster asset materialize -m tests.faults.definitions ...`, for the
kill -9 bench's placed kills only."""
from tests.faults.kill_points import install

install()

from reviewbench_assets.definitions import defs  # noqa: E402  (after the points are installed)

__all__ = ["defs"]
