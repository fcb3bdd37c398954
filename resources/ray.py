"""Ray: a local cluster by default, or an existing one at `address` (`auto`, `ray://head:10001`)."""
from __future__ import annotations

import dagster as dg
from pydantic import Field


class RayResource(dg.ConfigurableResource):
    address: str | None = Field(default=None, description="None starts a local Ray")
    num_cpus: int | None = Field(default=None, description="CPUs for a local Ray (None: all)")
