"""Mutated variants of the corpus's PDFs, seeded and deterministic: the same PDF, kind and seed give
the same bytes on any machine (``random.Random`` seeded by a string).

Kinds (each keeps the ``%PDF-`` header and ends with ``%%EOF``, so the variant reaches PDFium and
the layout step instead of being refused by the reading step's cheap checks):

* ``flip``: 1 to 64 bytes after the header set to random values;
* ``truncate``: the file cut at a random point, ``%%EOF`` appended (PDFium rebuilds the xref);
* ``drop_object``: one ``N G obj ... endobj`` removed (a font, a page, a content stream);
* ``xref``: the cross-reference offsets and ``startxref`` overwritten with wrong digits;
* ``stream``: a run of bytes inside one stream replaced (a content or font stream that inflates
  to garbage, or not at all).
"""
from __future__ import annotations

import random
import re

KINDS = ("flip", "truncate", "drop_object", "xref", "stream")
_OBJ = re.compile(rb"\d+\s+\d+\s+obj\b.*?endobj", re.S)
_STREAM = re.compile(rb"stream\r?\n")
_DIGITS = re.compile(rb"\d{10} \d{5} [nf]")
_STARTXREF = re.compile(rb"startxref\s+(\d+)")
EOF = b"\n%%EOF\n"


def _rng(name: str, kind: str, seed: int) -> random.Random:
    return random.Random(f"{name}:{kind}:{seed}")


def _body_start(data: bytes) -> int:
    return min(len(data), data.find(b"\n", data.find(b"%PDF-")) + 1 or 16)


def mutate(data: bytes, kind: str, name: str, seed: int) -> bytes:
    """The variant ``kind``/``seed`` of the PDF ``data`` (``name`` seeds the generator: its sha256)."""
    rng = _rng(name, kind, seed)
    start = _body_start(data)
    if len(data) <= start + 8:
        return data
    if kind == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 64)):
            out[rng.randrange(start, len(out))] = rng.randrange(256)
        return bytes(out) + (b"" if b"%%EOF" in out[-2048:] else EOF)
    if kind == "truncate":
        return data[: rng.randrange(start, len(data))] + EOF
    if kind == "drop_object":
        objects = list(_OBJ.finditer(data))
        if not objects:
            return mutate(data, "flip", name, seed)
        m = objects[rng.randrange(len(objects))]
        return data[: m.start()] + data[m.end():]
    if kind == "xref":
        out = bytearray(data)
        for m in _DIGITS.finditer(data):
            if rng.random() < 0.5:
                out[m.start(): m.start() + 10] = f"{rng.randrange(10**10):010d}".encode()
        for m in _STARTXREF.finditer(data):
            digits = str(rng.randrange(len(data) * 2)).encode().rjust(len(m.group(1)), b"0")
            out[m.start(1): m.end(1)] = digits[: len(m.group(1))]
        return bytes(out)
    if kind == "stream":
        streams = list(_STREAM.finditer(data))
        if not streams:
            return mutate(data, "flip", name, seed)
        m = streams[rng.randrange(len(streams))]
        end = data.find(b"endstream", m.end())
        end = end if end > m.end() else min(len(data), m.end() + 256)
        lo = rng.randrange(m.end(), max(m.end() + 1, end))
        hi = min(end, lo + rng.randint(1, 512))
        return data[:lo] + bytes(rng.randrange(256) for _ in range(hi - lo)) + data[hi:]
    raise ValueError(f"unknown mutation {kind!r}")


def plan(entries: list[dict], count: int, per_pdf: int, max_pages: int = 30) -> list[tuple[dict, str, int]]:
    """``count`` PDFs of the manifest (readable ones of at most ``max_pages`` pages, chosen by their
    sha256, so the same manifest gives the same plan) times ``per_pdf`` (kind, seed) variants, the
    kinds taken in turn."""
    pool = sorted((e for e in entries if e.get("pages") and e["pages"] <= max_pages), key=lambda e: e["sha256"])
    step = max(1, len(pool) // max(1, count))
    chosen = pool[::step][:count]
    return [(e, KINDS[(i + j) % len(KINDS)], j) for i, e in enumerate(chosen) for j in range(per_pdf)]


def fuzz_one(job: dict) -> dict:
    """Pool worker: write the variant, then convert it as any PDF (``convert.convert_one``)."""
    from benchmarks.robustness.convert import convert_one

    with open(job["src"], "rb") as handle:
        data = handle.read()
    variant = mutate(data, job["kind"], job["name"], job["seed"])
    with open(job["path"], "wb") as handle:
        handle.write(variant)
    return convert_one(job)
