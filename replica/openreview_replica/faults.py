"""Deterministic fault injection for the replica API servers."""

from __future__ import annotations

import io
import time
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache

BAD_PDF_KINDS = ("truncated", "encrypted", "zero_pages", "500_pages", "not_pdf", "inflate_bomb")


@dataclass
class FaultConfig:
    """Faults applied to API requests (v1 and v2 servers; not the web page server).

    Counters ("first N") count only requests that match ``path_prefix`` (None = every API request
    except the ``/_replica/`` control paths and CORS preflights) and are reset by ``set_faults``.
    Order per request: slow_ms, then drop, then 429 storm, then 429, then error.
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
    # 429 storm: every matching request is refused for this many seconds, counted from the first
    # matching request after set_faults; each refusal says Retry-After: retry_after_s.
    storm_s: float = 0.0
    # 5xx bursts: of every error_burst_period matching requests, the first error_burst_len answer
    # error_status (e.g. period 10, len 3: requests 1-3, 11-13, 21-23 ... fail). 0 = off.
    error_burst_period: int = 0
    error_burst_len: int = 0
    # dropped connections spread over the crawl: every drop_every_n-th matching request is dropped
    drop_every_n: int = 0
    # forum id -> one of BAD_PDF_KINDS: the PDF served for that forum is replaced by a bad one
    bad_pdfs: dict[str, str] = field(default_factory=dict)
    # /notes, /notes/edits, /references pages hold at most this many items whatever `limit` asks
    # (0 = off); `count` stays the true total. A server may answer short pages (openreview-api.md).
    page_size: int = 0
    # /notes submission queries (first page) also return a copy of their first note under each of
    # these ids: hostile ids (`../../x`, `sub/dir`, 400 characters, NUL) that must never become paths.
    hostile_ids: list[str] = field(default_factory=list)
    # every note on a /notes page gets a lone surrogate and a NUL in its abstract (valid JSON:
    # the server escapes them as \ud800 and \u0000, as a real JSON API may)
    lone_surrogates: bool = False
    # Windowed limits as openreview.net applies them (docs/openreview-api.md §0.2: "You have made 37
    # requests, surpassing the limit of 36 requests. Please try again in 60 minutes", details.limit,
    # details.resetTime): at most window_limit API requests per window_s seconds, counted from the
    # window's first request (refused ones count too); attachments (PDF and file downloads) have
    # their own attachment_window_limit when set. A time scale: window_s=10 stands for 30 minutes.
    window_limit: int = 0
    window_s: float = 0.0
    attachment_window_limit: int = 0

    def __post_init__(self):
        bad = {k: v for k, v in (self.bad_pdfs or {}).items() if v not in BAD_PDF_KINDS}
        if bad:
            raise ValueError(f"unknown bad_pdfs kinds {bad}; expected one of {BAD_PDF_KINDS}")
        if self.error_burst_period and not 0 < self.error_burst_len < self.error_burst_period:
            raise ValueError("error_burst_len must be in 1..error_burst_period-1")

    @classmethod
    def from_dict(cls, d: dict | None) -> FaultConfig:
        names = {f.name for f in fields(cls)}
        unknown = set(d or {}) - names
        if unknown:
            raise ValueError(f"unknown fault keys: {sorted(unknown)}")
        return cls(**(d or {}))

    def to_dict(self) -> dict:
        return asdict(self)

    def matches(self, path: str) -> bool:
        return self.path_prefix is None or path.startswith(self.path_prefix)


class FaultCounters:
    """Per-config counters (reset by ``set_faults``); call ``decide`` under the state lock."""

    def __init__(self):
        self.n = 0  # matching requests seen
        self.storm_started: float | None = None

    def decide(self, f: FaultConfig, counters: dict) -> tuple[str | None, float]:
        """The action for the next matching request ('drop', 'storm', 'rate', 'error' or None) and,
        for a storm, the seconds left in its window."""
        self.n += 1
        if f.drop_first_n and counters["drop"] < f.drop_first_n:
            counters["drop"] += 1
            return "drop", 0.0
        if f.drop_every_n and self.n % f.drop_every_n == 0:
            counters["drop"] += 1
            return "drop", 0.0
        if f.storm_s:
            now = time.monotonic()
            if self.storm_started is None:
                self.storm_started = now
            left = self.storm_started + f.storm_s - now
            if left > 0:
                counters["storm"] = counters.get("storm", 0) + 1
                return "storm", left
        if f.rate_limit_first_n and counters["rate"] < f.rate_limit_first_n:
            counters["rate"] += 1
            return "rate", 0.0
        if f.error_first_n and counters["error"] < f.error_first_n:
            counters["error"] += 1
            return "error", 0.0
        if f.error_burst_period and (self.n - 1) % f.error_burst_period < f.error_burst_len:
            counters["error"] += 1
            return "error", 0.0
        return None, 0.0


def bad_pdf(kind: str, good: bytes) -> bytes:
    """The bytes served instead of ``good`` for a forum listed in ``FaultConfig.bad_pdfs``."""
    if kind == "truncated":
        return good[: max(64, len(good) // 3)]
    if kind == "not_pdf":
        return (b"<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Service temporarily "
                b"unavailable</h1><p>Please try again later.</p></body></html>\n")
    if kind == "zero_pages":
        return _zero_page_pdf()
    if kind == "encrypted":
        return _encrypted_pdf()
    if kind == "500_pages":
        return _many_pages_pdf(500)
    if kind == "inflate_bomb":
        return _inflate_bomb_pdf()
    raise ValueError(kind)


def _pdf_of(objs: list[bytes]) -> bytes:
    """A PDF of these numbered objects (1 = the catalog) with a correct xref table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref))
    return out.getvalue()


def _zero_page_pdf() -> bytes:
    """A well-formed PDF whose page tree is empty (/Count 0), with a correct xref table."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    return _pdf_of(objs)


@lru_cache(maxsize=1)
def _inflate_bomb_pdf(inflated_mb: int = 64) -> bytes:
    """A one-page PDF whose page content is a Flate stream of `inflated_mb` MiB of spaces (~64 KiB
    on the wire): small to download, large to parse (the issue measured 1 GiB from 1 MB)."""
    import zlib

    content = zlib.compress(b" " * (inflated_mb << 20), 9)
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream"]
    return _pdf_of(objs)


@lru_cache(maxsize=1)
def _encrypted_pdf() -> bytes:
    """A one-page PDF that needs a user password to open (RC4/AES via reportlab's encryption)."""
    from reportlab.lib.pdfencrypt import StandardEncryption
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    enc = StandardEncryption("replica-user-pw", ownerPassword="replica-owner-pw", canPrint=0, canCopy=0)
    c = canvas.Canvas(buf, encrypt=enc, invariant=1)
    c.drawString(72, 720, "This submission is encrypted.")
    c.showPage()
    c.save()
    return buf.getvalue()


@lru_cache(maxsize=2)
def _many_pages_pdf(n: int) -> bytes:
    """An n-page PDF, one short text line per page (a 500-page appendix dump)."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    for i in range(n):
        c.drawString(72, 720, f"Supplementary page {i + 1} of {n}.")
        c.showPage()
    c.save()
    return buf.getvalue()


def mutate_notes(f: FaultConfig, notes: list[dict], first_page: bool, submissions_query: bool) -> list[dict]:
    """The /notes page as the faults change it (hostile ids, lone surrogates); copies, never the
    fixtures themselves."""
    import copy

    out = list(notes)
    if f.hostile_ids and first_page and submissions_query and out:
        for hid in f.hostile_ids:
            clone = copy.deepcopy(out[0])
            clone["id"] = clone["forum"] = hid
            out.append(clone)
    if f.lone_surrogates:
        out = [copy.deepcopy(n) for n in out]
        for n in out:
            content = n.get("content") or {}
            abstract = content.get("abstract")
            if isinstance(abstract, dict):
                abstract["value"] = f"{abstract.get('value', '')} \ud800 lone surrogate, NUL \x00 end"
            elif isinstance(abstract, str):
                content["abstract"] = f"{abstract} \ud800 lone surrogate, NUL \x00 end"
    return out
