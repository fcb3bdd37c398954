"""Deterministic two-column "paper" PDFs with a known text layer (reportlab).

Every PDF is fully described by a :class:`PdfSpec`; :func:`render_pdf` always
produces the same bytes for the same spec (reportlab ``invariant=1``), so the
content address ``/pdf/<sha1 of bytes>.pdf`` is stable across runs.

Text contract (checked by tests, relied on by OCR/parsing code):

* page 1 carries the revision marker line ``Replica marker: forum <forum_id> revision <k>.``
* every page carries ``Page <p> of revision <k>`` in its footer.
"""

from __future__ import annotations

import hashlib
import io
import random
from dataclasses import dataclass, field

WORDS = (
    "model data training learning neural network gradient loss transformer attention "
    "representation benchmark dataset evaluation robust generalization optimization "
    "convergence theorem bound empirical baseline ablation architecture sparse latent "
    "policy reward agent graph kernel embedding token language vision diffusion "
    "sampling inference estimator variance regularization scaling efficient"
).split()

SECTIONS = ["Introduction", "Related Work", "Method", "Experiments", "Discussion", "Conclusion"]


def marker_text(forum_id: str, revision: int) -> str:
    return f"Replica marker: forum {forum_id} revision {revision}."


def page_marker_text(page: int, revision: int) -> str:
    return f"Page {page} of revision {revision}"


@dataclass(frozen=True)
class PdfSpec:
    forum_id: str
    revision: int  # 1-based index among the forum's PDF revisions (chronological)
    title: str
    abstract: str
    n_pages: int
    seed: int

    @property
    def marker(self) -> str:
        return marker_text(self.forum_id, self.revision)

    def key(self) -> str:
        return f"{self.forum_id}|{self.revision}|{self.title}|{self.n_pages}|{self.seed}"


def sentences(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        k = rng.randint(6, 12)
        s = " ".join(rng.choice(WORDS) for _ in range(k))
        out.append(s[0].upper() + s[1:] + ".")
    return out


def _wrap(text: str, width_chars: int) -> list[str]:
    lines, cur = [], ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > width_chars:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def page_lines(spec: PdfSpec) -> list[dict]:
    """The known text of every page: list (per page) of {"full": [...], "left": [...], "right": [...]}."""
    rng = random.Random(spec.seed)
    pages = []
    sec_iter = iter(SECTIONS * 3)
    for p in range(1, spec.n_pages + 1):
        full: list[str] = []
        if p == 1:
            full += _wrap(spec.title, 70)
            full.append("Anonymous authors")
            full.append(spec.marker)
            full.append("Abstract")
            full += _wrap(spec.abstract, 95)
        n_col_lines = 34 if p == 1 else 52
        cols = []
        for _c in range(2):
            col: list[str] = []
            while len(col) < n_col_lines:
                col.append(f"{p}. {next(sec_iter)}" if not col else "")
                for s in sentences(rng, 4):
                    col += _wrap(s, 48)
                col = [x for x in col if x != ""]
            cols.append(col[:n_col_lines])
        pages.append({"full": full, "left": cols[0], "right": cols[1],
                      "footer": page_marker_text(p, spec.revision)})
    return pages


def render_pdf(spec: PdfSpec) -> bytes:
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter, invariant=1, pageCompression=1)
    c.setTitle(spec.title)
    c.setAuthor("Anonymous")
    c.setCreator("openreview_replica")
    width, height = letter
    for page in page_lines(spec):
        y = height - 60
        for i, line in enumerate(page["full"]):
            if i == 0:
                c.setFont("Helvetica-Bold", 14)
            else:
                c.setFont("Helvetica", 9)
            c.drawString(54, y, line)
            y -= 16 if i == 0 else 12
        y -= 10
        c.setFont("Times-Roman", 9)
        for x0, col in ((54, page["left"]), (316, page["right"])):
            yy = y
            for line in col:
                c.drawString(x0, yy, line)
                yy -= 11
        c.setFont("Helvetica", 8)
        c.drawString(width / 2 - 50, 30, page["footer"])
        c.showPage()
    c.save()
    return buf.getvalue()


def sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


@dataclass
class PdfStore:
    """sha -> spec registry with a bytes cache (lazy rendering for large venues)."""

    specs: dict[str, PdfSpec] = field(default_factory=dict)
    _cache: dict[str, bytes] = field(default_factory=dict)
    max_cached: int = 4096

    def add(self, spec: PdfSpec, eager: bool) -> str:
        if eager:
            data = render_pdf(spec)
            h = sha1(data)
            self._cache[h] = data
        else:
            # lazy mode: the address is the sha1 of the spec key, not of the bytes
            h = hashlib.sha1(spec.key().encode()).hexdigest()
        self.specs[h] = spec
        return h

    def get(self, h: str) -> bytes | None:
        data = self._cache.get(h)
        if data is not None:
            return data
        spec = self.specs.get(h)
        if spec is None:
            return None
        data = render_pdf(spec)
        if len(self._cache) < self.max_cached:
            self._cache[h] = data
        return data
