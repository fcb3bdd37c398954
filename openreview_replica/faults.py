"""Deterministic fault injection for the replica API servers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields


@dataclass
class FaultConfig:
    """Faults applied to API requests (v1 and v2 servers; not the web page server).

    Counters ("first N") count only requests that match ``path_prefix`` (None = every API request
    except the ``/_replica/`` control paths and CORS preflights) and are reset by ``set_faults``.
    Order per request: slow_ms, then drop, then 429, then error.
    """

    rate_limit_first_n: int = 0  # answer 429 RateLimitError (body with details.resetTime, Retry-After header)
    retry_after_s: int = 1  # Retry-After seconds / resetTime offset for the 429s
    error_first_n: int = 0  # answer error_status with an error body
    error_status: int = 503  # 500 / 502 / 503 / 504
    slow_ms: int = 0  # added latency for every matching request
    drop_first_n: int = 0  # close the connection without any response
    path_prefix: str | None = None  # e.g. "/notes", "/pdf", "/notes/edits"
    missing_pdfs: list[str] = field(default_factory=list)  # forum ids whose PDFs answer 404
    corrupt_pdfs: list[str] = field(default_factory=list)  # forum ids whose PDFs are truncated

    @classmethod
    def from_dict(cls, d: dict | None) -> "FaultConfig":
        names = {f.name for f in fields(cls)}
        unknown = set(d or {}) - names
        if unknown:
            raise ValueError(f"unknown fault keys: {sorted(unknown)}")
        return cls(**(d or {}))

    def to_dict(self) -> dict:
        return asdict(self)

    def matches(self, path: str) -> bool:
        return self.path_prefix is None or path.startswith(self.path_prefix)
