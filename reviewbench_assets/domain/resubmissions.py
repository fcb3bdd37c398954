"""Which submissions are versions of one paper (issue 37 items 2-3): a rule over plain records.

A paper rejected or withdrawn at one venue is commonly submitted again to a later one, often retitled,
its abstract partly rewritten, its author list reordered or grown. `link_resubmissions` links such
versions across venue-years and flags near-identical submissions inside one venue-year (dual
submissions). It needs no Dagster, storage or HTTP:

    >>> recs = [Submission(id="a1", venue_year="iclr-2024", time=1, title="Sparse attention for long documents",
    ...                    abstract="We show that sparse attention with learned routing keeps accuracy on long "
    ...                             "documents while cutting memory by half on three benchmarks.",
    ...                    authors=("Ada Lovelace", "Alan Turing"), decision="Reject"),
    ...         Submission(id="b7", venue_year="neurips-2024", time=2, title="Routing sparse attention",
    ...                    abstract="We show that sparse attention with learned routing keeps accuracy on long "
    ...                             "documents while cutting memory by half on four benchmarks.",
    ...                    authors=("Alan Turing", "Ada Lovelace", "Grace Hopper"), decision="Accept (poster)")]
    >>> result = link_resubmissions(recs)
    >>> [(l.earlier, l.later, l.kind) for l in result.links]
    [('a1', 'b7', 'resubmission')]
    >>> [s.decision for s in result.chains[0].steps]
    ['Reject', 'Accept (poster)']

Candidates come from MinHash/LSH (datasketch) over the abstract's word 3-grams, the title's words and
the full text's 5-grams, plus exact normalised titles and explicit links (TMLR's
`resubmission_of_major_revision`): never all pairs, so the cost per paper stays flat. Each candidate
pair is scored on its own signals (exact Jaccard of the shingle sets, shared public authors); a link
keeps the signals that decided it and a confidence. A record with too little text to judge (no
abstract and a title of under three words, and no full text) is left alone with a reason, never linked
by guess and never a crash. Authors a double-blind venue hides ("Anonymous") are no authors. What a
link from the records can and cannot find, on hand-written pairs: docs/resubmissions.md.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

NUM_PERM = 128
LSH_THRESHOLD = 0.05  # candidates only, on the rare shingles: a partly rewritten abstract keeps ~10-50% of them
MAX_TITLE_GROUP = 8
# A shingle found in more records than this is a stock phrase ("in this paper we", an area's opening
# sentence), no evidence that two records are one paper: it is left out of the LSH sets. Without the
# cap every pair of records sharing stock phrases is a candidate, so the candidates per record grow
# with the corpus (the cost per paper grew 3.4x from 2,000 to 8,000 papers); with it, a shingle puts a
# record in at most STOCK_SHINGLE_RECORDS buckets' worth of company, whatever the corpus size. The
# cap is set from what one paper's own phrasing reaches: its versions (a chain of a few venue-years,
# a dual submission) and a handful of close papers; at 40 a shingle's company kept growing with the
# corpus up to the cap (candidates per paper 43 at 5,000 papers, 53 at 20,000: CPU per paper +13 %),
# at 10 it is reached already at a few thousand papers and the cost per paper is flat.
STOCK_SHINGLE_RECORDS = 10
MIN_RARE_SHINGLES = 8  # a record made only of stock phrases keeps its rarest shingles as candidates
LSH_WEIGHTS = (0.5, 0.5)  # datasketch's (false positive, false negative) weights
_WORD = re.compile(r"[^\W_]+")  # letters and digits of any script
# What a double-blind venue shows in place of its authors: an API v1 blind note's content is
# {'authors': ['Anonymous'], 'authorids': ['<venue>/Paper<N>/Authors']} until they are revealed
# (openreview-py, openreview/conference/conference.py create_blind_submissions). Such a name is no
# public author: two hidden lists are not "the same authors", a hidden and a public list not disjoint.
HIDDEN_AUTHOR_NAMES = frozenset({"anonymous", "anonymous author", "anonymous authors", "anonymized"})
# Words a content-word overlap ignores: function words every abstract has (the rule's own list, short
# on purpose; a domain word such as "model" stays, it is evidence only with the others).
_FUNCTION_WORDS = frozenset(
    "a an the of in on for to and or with by from as at is are be been was were we our this that these those "
    "it its which than then their into over under without while not no can also both each such via using use "
    "used based show shows how when where more most other only".split())


class Submission(BaseModel):
    """One submission as the linking rule sees it (plain values; authors only where public)."""
    model_config = ConfigDict(frozen=True)
    id: str
    venue_year: str
    time: int | None = None  # ms (submission cdate); orders the versions of a chain
    title: str = ""
    abstract: str = ""
    authors: tuple[str, ...] = ()
    decision: str | None = None
    full_text: str | None = None
    resubmission_of: str | None = None  # an explicit link OpenReview states (TMLR), the earlier id


class Link(BaseModel):
    model_config = ConfigDict(frozen=True)
    earlier: str
    later: str
    kind: Literal["resubmission", "dual_submission"]
    signals: dict[str, float]  # title, abstract, authors, full_text similarities (absent: not comparable)
    evidence: str  # which rule linked them
    confidence: float


class Step(BaseModel):
    id: str
    venue_year: str
    time: int | None
    decision: str | None


class Chain(BaseModel):
    chain_id: str  # the id of its earliest version
    steps: list[Step]  # time order


class LeftAlone(BaseModel):
    id: str
    reason: str


class Linking(BaseModel):
    links: list[Link]
    chains: list[Chain]
    left_alone: list[LeftAlone]


# ---- the signals ------------------------------------------------------------------------------------------

# Latin letters NFKD does not decompose into a base letter and an accent: written both ways in author
# lists and titles ('Søren Ørsted' / 'Soren Orsted'); dropped, they cut a name ('rsted').
_LATIN_FOLD = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ŀ": "l", "ß": "ss",
                             "æ": "ae", "œ": "oe", "þ": "th"})


def _words(text: str | None) -> list[str]:
    """Lower-case words, accents folded ('Écoles' = 'ecoles', 'ℓ1' = 'l1'); letters of other scripts
    are kept as they are (a name or title in CJK or Cyrillic is still words, not nothing)."""
    text = (text or "").lower()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_LATIN_FOLD))
        text = "".join(c for c in text if not unicodedata.combining(c))
    return _WORD.findall(text)


def _grams(words: list[str], n: int) -> set[str]:
    if len(words) < n:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


def _jaccard(a: set, b: set) -> float:
    if not a or not b:
        return 0.0
    common = len(a & b) if len(a) <= len(b) else len(b & a)
    return common / (len(a) + len(b) - common)


def _author_key(name: str) -> str:
    """A public author by family name and first initial ('Ada Lovelace' ~ 'A. Lovelace'); "" for none
    (an empty name, or the placeholder of hidden authors)."""
    w = _words(name)
    if not w or " ".join(w) in HIDDEN_AUTHOR_NAMES:
        return ""
    return f"{w[-1]} {w[0][0]}"


def has_public_author(names: Iterable[str]) -> bool:
    return any(_author_key(n) for n in names)


def _content_words(words: list[str]) -> set[str]:
    return {w for w in words if len(w) > 2 and w not in _FUNCTION_WORDS}


class _Features:
    __slots__ = ("rec", "title", "title_norm", "abstract", "abstract_words", "abstract_rare", "text", "authors")

    def __init__(self, rec: Submission):
        self.rec = rec
        tw = _words(rec.title)
        self.title = set(tw)
        self.title_norm = " ".join(tw)
        aw = _words(rec.abstract)
        self.abstract = _grams(aw, 3)
        self.abstract_words = _content_words(aw)
        self.abstract_rare = self.abstract  # its 3-grams without the corpus's stock ones (link_resubmissions sets it)
        self.text = _grams(_words(rec.full_text)[:3000], 5) if rec.full_text else set()
        self.authors = {k for k in map(_author_key, rec.authors) if k}


def too_little_text(f: _Features) -> str | None:
    if not f.abstract and len(f.title) < 3 and not f.text:
        return "too_little_text"  # no abstract, a title of under three words, no full text
    return None


def signals(a: _Features, b: _Features) -> dict[str, float]:
    out = {"title": round(_jaccard(a.title, b.title), 3)}
    if a.abstract and b.abstract:
        out["abstract"] = round(_jaccard(a.abstract, b.abstract), 3)
        out["abstract_words"] = round(_jaccard(a.abstract_words, b.abstract_words), 3)
        out["abstract_distinct"] = round(_jaccard(a.abstract_rare, b.abstract_rare), 3)
    if a.authors and b.authors:
        out["authors"] = round(len(a.authors & b.authors) / min(len(a.authors), len(b.authors)), 3)
    if a.text and b.text:
        out["full_text"] = round(_jaccard(a.text, b.text), 3)
    return out


def decide(s: dict[str, float], same_venue: bool) -> tuple[str, str, float] | None:
    """(kind, evidence, confidence) of a pair, or None. Thresholds set by hand on the cases in
    tests/domain/test_resubmissions.py, tests/domain/resubmission_pairs.py and the bench's planted versions, where same-area papers
    share up to ~30% of their abstract 3-grams (a stock sentence, a common phrasing) and a version with
    one or two sentences rewritten keeps 35% or more."""
    t, ab, au, ft = s["title"], s.get("abstract"), s.get("authors"), s.get("full_text")
    if same_venue:  # within one venue-year only a near copy is a finding: a dual submission
        if (ab is not None and ab >= 0.9 and t >= 0.8) or (ft is not None and ft >= 0.9):
            return "dual_submission", "near_identical_in_one_venue", round(min(1.0, (ab or ft or 0) * 0.5 + t * 0.5), 3)
        return None
    if ab is not None and ab >= 0.5:
        return "resubmission", "abstract", round(min(1.0, 0.6 + ab * 0.4), 3)
    # a mid abstract overlap needs the title or the authors too; public authors sharing nobody refute it
    if ab is not None and ((ab >= 0.25 and (au or 0) >= 0.5) or (ab >= 0.35 and t >= 0.5 and (au is None or au > 0))):
        return "resubmission", "abstract+title_or_authors", round(0.5 + ab * 0.3 + max(t, au or 0) * 0.2, 3)
    # authors hidden on a side (a double-blind rejection, a submission under review): nothing can
    # refute or confirm, so a mid 3-gram overlap needs the abstract's words kept too, and its own
    # phrasing. A version rewritten by 30-60 % keeps its method's, data's and result's words (content-word
    # Jaccard 0.42-0.69 on the hand-written versions of tests/domain/resubmission_pairs.py) where a paper
    # of the same topic and keywords shares the area's (0.17-0.40 on its hard negatives), and its 3-grams
    # keep 0.25-0.30 where those share at most 0.15. At 0.45 words, planted versions at 0.42-0.44 were
    # missed and one 50,000-paper chain split across train/test; 0.41 keeps them. Phrasing the area's papers share (a stock opening
    # sentence, a template) is no evidence: on the bench's distractors, which share a stock sentence and
    # sentence templates, 3-grams and words alone linked 231 false pairs at 5,000 papers with half the
    # ICLR authors hidden; over the 3-grams in at most STOCK_SHINGLE_RECORDS records ("distinct")
    # those false pairs score <= 0.105, the planted versions 0.115-0.45.
    if (ab is not None and au is None and ab >= 0.25 and s.get("abstract_words", 0) >= 0.41
            and s.get("abstract_distinct", 0) >= 0.12):
        return "resubmission", "abstract+words+distinct_authors_hidden", round(0.5 + ab * 0.3 + s["abstract_words"] * 0.2, 3)
    if ft is not None and ft >= 0.5:
        return "resubmission", "full_text", round(min(1.0, 0.5 + ft * 0.5), 3)
    if ab is None and t >= 0.8 and len(s) > 1 and (au or 0) >= 0.5:
        return "resubmission", "title+authors_without_abstract", round(0.4 + t * 0.3, 3)
    return None


# ---- candidates (MinHash/LSH) -----------------------------------------------------------------------------

def _minhashes(sets: list[set[str]]):
    from datasketch import LeanMinHash, MinHash

    return [LeanMinHash(m) for m in MinHash.bulk([[x.encode() for x in s] for s in sets], num_perm=NUM_PERM)]


def _rare(sets: list[set[str]]) -> list[set[str]]:
    """Each set without its stock shingles (see STOCK_SHINGLE_RECORDS); exact scores still read all."""
    df: dict[str, int] = {}
    for s in sets:
        for g in s:
            df[g] = df.get(g, 0) + 1
    out = []
    for s in sets:
        rare = {g for g in s if df[g] <= STOCK_SHINGLE_RECORDS}
        if len(rare) < MIN_RARE_SHINGLES and len(s) > len(rare):
            rare = set(sorted(s, key=lambda g: (df[g], g))[:MIN_RARE_SHINGLES])
        out.append(rare)
    return out


def _candidates(feats: list[_Features], query: list[int]) -> set[tuple[int, int]]:
    """Index pairs (i, j), i < j, with `i` or `j` in `query`, from LSH over each signal and exact titles."""
    from datasketch import MinHashLSH

    pairs: set[tuple[int, int]] = set()
    wanted = set(query)
    # titles only where a side has no abstract (the one rule that reads a title alone wants >= 0.8)
    for attr, threshold in (("abstract", LSH_THRESHOLD), ("title", 0.8), ("text", LSH_THRESHOLD)):
        have = [i for i, f in enumerate(feats) if getattr(f, attr)]
        if not have:
            continue
        sets = [getattr(feats[i], attr) for i in have]
        if attr == "abstract":
            sets = [feats[i].abstract_rare for i in have]
        elif attr != "title":  # a title's words are few and common by nature; its LSH only serves no-abstract pairs
            sets = _rare(sets)
        hashes = dict(zip(have, _minhashes(sets), strict=True))
        lsh = MinHashLSH(num_perm=NUM_PERM, params=(NUM_PERM, 1)) if attr != "title" else \
            MinHashLSH(threshold=threshold, num_perm=NUM_PERM, weights=LSH_WEIGHTS)
        for i, m in hashes.items():
            lsh.insert(i, m, check_duplication=False)
        # titles: the records without abstract ask (a pair needs one), the pair kept when it touches the query
        askers = [q for q in query if q in hashes] if attr != "title" else \
            [i for i in hashes if not feats[i].abstract]
        for i in askers:
            pairs.update((min(i, j), max(i, j)) for j in lsh.query(hashes[i])
                         if j != i and (i in wanted or j in wanted))
    by_title: dict[str, list[int]] = {}
    for i, f in enumerate(feats):
        if len(f.title) >= 3:
            by_title.setdefault(f.title_norm, []).append(i)
    for group in by_title.values():  # a title dozens of papers share says nothing of one paper
        if 1 < len(group) <= MAX_TITLE_GROUP and wanted & set(group):
            # with both abstracts too: a version that kept its title but whose abstract's distinct 3-grams
            # miss the other's (a short abstract mostly of stock phrasing) is never an LSH candidate
            pairs.update((a, b) for a in group for b in group if a < b and (a in wanted or b in wanted))
    return pairs


# ---- the rule ---------------------------------------------------------------------------------------------

def _order(r: Submission) -> tuple:
    return (r.time if r.time is not None else 2**62, r.venue_year, r.id)


def link_resubmissions(records: Iterable[Submission], touching: Iterable[str] | None = None) -> Linking:
    """Links between versions of one paper, the chains they form, the records left alone and why.

    `touching`: venue-years that changed; only pairs with a record in one of them are scored (the
    links among the other venue-years are the caller's, kept from before). None scores every record."""
    recs = list({r.id: r for r in records}.values())
    feats = [_Features(r) for r in recs]
    have = [f for f in feats if f.abstract]
    for f, rare in zip(have, _rare([f.abstract for f in have]), strict=True):
        f.abstract_rare = rare
    index = {r.id: i for i, r in enumerate(recs)}
    changed = None if touching is None else set(touching)
    query = [i for i, r in enumerate(recs) if changed is None or r.venue_year in changed]
    left = [LeftAlone(id=recs[i].id, reason=why) for i in query if (why := too_little_text(feats[i]))]
    skip = {index[x.id] for x in left}
    links: dict[tuple[str, str], Link] = {}
    for i in query:  # explicit links first: OpenReview says so
        r = recs[i]
        if r.resubmission_of and r.resubmission_of in index and r.resubmission_of != r.id:
            e, later = sorted((recs[index[r.resubmission_of]], r), key=_order)
            links[(e.id, later.id)] = Link(earlier=e.id, later=later.id, kind="resubmission",
                                           signals=signals(feats[index[e.id]], feats[index[later.id]]),
                                           evidence="explicit:resubmission_of", confidence=1.0)
    for i, j in sorted(_candidates(feats, query)):
        if i in skip or j in skip:
            continue
        a, b = sorted((recs[i], recs[j]), key=_order)
        if (a.id, b.id) in links:
            continue
        s = signals(feats[index[a.id]], feats[index[b.id]])
        verdict = decide(s, same_venue=a.venue_year == b.venue_year)
        if verdict:
            kind, evidence, confidence = verdict
            links[(a.id, b.id)] = Link(earlier=a.id, later=b.id, kind=kind, signals=s, evidence=evidence,
                                       confidence=confidence)
    out = sorted(links.values(), key=lambda l: (l.earlier, l.later))
    return Linking(links=out, chains=chains(recs, out), left_alone=left)


def chains(records: Iterable[Submission], links: Iterable[Link]) -> list[Chain]:
    """Connected versions, each in time order with its decision; a record without a link is no chain."""
    by_id = {r.id: r for r in records}
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for link in links:
        parent[find(link.earlier)] = find(link.later)
    groups: dict[str, list[Submission]] = {}
    for x in list(parent):
        if x in by_id:
            groups.setdefault(find(x), []).append(by_id[x])
    out = []
    for members in groups.values():
        members.sort(key=_order)
        out.append(Chain(chain_id=members[0].id, steps=[Step(id=m.id, venue_year=m.venue_year, time=m.time,
                                                               decision=m.decision) for m in members]))
    return sorted(out, key=lambda c: c.chain_id)


# ---- train/test per chain (issue 37 item 3) ---------------------------------------------------------------

def forum_in_test(forum_id: str, test_share: float) -> bool:
    """The per-forum draw the Re^2 split has always made (a hash of the forum id)."""
    h = int(hashlib.sha256(forum_id.encode("utf-8")).hexdigest()[:8], 16)
    return h / 2**32 < test_share


def chain_split(member_ids: Iterable[str], test_share: float) -> str:
    """A chain is in test when any of its versions draws test on its own. It depends on the members
    only, not on the order venue-years arrive, and a paper once in test stays in test: joining a chain
    (or two chains merging) can move train versions to test, never a test version to train. The test
    share grows with chain length (a chain of k versions is in test with 1-(1-p)^k)."""
    return "test" if any(forum_in_test(m, test_share) for m in member_ids) else "train"


