"""LLM steps of the Re^2 dialogues: merge a multi-post turn, classify reminder posts.

Pure domain code, no Dagster. The LLM is anything implementing `LLMClient.complete_json` (a
batch of chat requests, each with a JSON schema, in; raw answer strings out): the
OpenAI-compatible HTTP client below, or the vLLM-in-Ray batch client of `resources/llm_client.py`.

Guarantees:
- structured output: every request carries a JSON schema; an answer that still does not parse
  or does not fit the schema counts as a failure (reason recorded), never as data;
- content guard: a merge whose text is much shorter than its parts, or that drops / invents too
  many of their tokens, is rejected and the rule-based merge kept (`merge_note` says why);
- cache: one JSON file per (task, input hash, model, prompt version) under the storage root, so
  a re-run of the same partition makes zero LLM calls (failures are cached too, on purpose:
  a deterministic model answers the same way again; bump the prompt version to retry);
- without an LLM (`client is None`) nothing here is called and the rows say `rule-based`.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

# Bump a version whenever its prompt, schema or parsing changes: the cache key includes it.
MERGE_PROMPT_VERSION = "merge-v1"
REMINDER_PROMPT_VERSION = "reminder-v1"

MERGE_SCHEMA: dict = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "text": {"type": "string"}},
    "required": ["title", "text"],
    "additionalProperties": False,
}
REMINDER_SCHEMA: dict = {
    "type": "object",
    "properties": {"label": {"type": "string", "enum": ["reminder", "content"]}},
    "required": ["label"],
    "additionalProperties": False,
}

MERGE_SYSTEM = (
    "You merge the consecutive posts of one participant of a scientific peer-review discussion "
    "into one coherent post. Keep every piece of content: all arguments, numbers, tables, "
    "equations, references and answers, in the original order and wording. Only remove "
    "part markers such as '(1/3)' or 'continued', and repeated greetings. Write one short "
    "title that covers all parts. Answer with a JSON object {\"title\": ..., \"text\": ...}."
)
REMINDER_SYSTEM = (
    "You classify one post an author wrote in a peer-review discussion. Answer \"reminder\" if "
    "the post only reminds or nudges a reviewer to respond (e.g. the discussion period ends "
    "soon, asking whether concerns were addressed) and adds no new scientific content; answer "
    "\"content\" otherwise. Answer with a JSON object {\"label\": \"reminder\"|\"content\"}."
)

# Content guard thresholds (see `check_merge`).
MIN_LENGTH_RATIO = 0.85   # merged text chars / chars of the parts' texts
MIN_TOKEN_RECALL = 0.90   # share of the parts' tokens (multiset) found in the merge
MIN_TOKEN_PRECISION = 0.85  # share of the merge's tokens found in the parts (no invented text)
_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class ChatRequest:
    """One structured-output chat request; clients read its four fields (resources.llm_client)."""

    messages: list[dict]
    schema: dict
    schema_name: str
    max_tokens: int


class LLMCacheLike(Protocol):
    """What the merge steps need of a cache (resources.llm_client.LLMCache is one)."""

    def get(self, key: str) -> dict | None: ...

    def put(self, key: str, value: dict) -> None: ...


class LLMClient(Protocol):
    model: str

    def complete_json(self, requests: list[ChatRequest]) -> list[str | Exception]:
        """One raw answer (or the client's error, an Exception) per request, in order."""


# ---------------------------------------------------------------------------------------------
# prompts


def merge_request(role: str, parts: list[tuple[str, str]], max_tokens: int) -> ChatRequest:
    """`parts`: (title, text) of each post, in turn order."""
    body = "\n\n".join(
        f"### Post {i + 1} of {len(parts)}\nTitle: {title or '(none)'}\n\n{text}"
        for i, (title, text) in enumerate(parts)
    )
    messages = [{"role": "system", "content": MERGE_SYSTEM},
                {"role": "user", "content": f"Posts by the {role}:\n\n{body}"}]
    return ChatRequest(messages, MERGE_SCHEMA, "merged_turn", max_tokens)


def reminder_request(title: str, text: str) -> ChatRequest:
    messages = [{"role": "system", "content": REMINDER_SYSTEM},
                {"role": "user", "content": f"Title: {title or '(none)'}\n\n{text}"}]
    return ChatRequest(messages, REMINDER_SCHEMA, "reminder_label", 16)


# ---------------------------------------------------------------------------------------------
# answers and the content guard


def parse_answer(raw: str, schema: dict) -> dict:
    """The JSON object of an answer, checked against the (flat) schema; ValueError otherwise."""
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"answer is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ValueError("answer is not a JSON object")
    props = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in obj:
            raise ValueError(f"answer lacks {key!r}")
    for key, spec in props.items():
        if key not in obj:
            continue
        if spec.get("type") == "string" and not isinstance(obj[key], str):
            raise ValueError(f"{key!r} is not a string")
        if "enum" in spec and obj[key] not in spec["enum"]:
            raise ValueError(f"{key!r} = {obj[key]!r} not in {spec['enum']}")
    return obj


def _tokens(text: str) -> Counter:
    return Counter(t.lower() for t in _TOKEN.findall(text))


_PART_MARK = re.compile(r"\(\s*(?:part\s*)?\d+\s*(?:/\s*\d+)?\s*\)|\bpart\s+\d+\b", re.IGNORECASE)


@dataclass(frozen=True)
class MergeCheck:
    ok: bool
    reason: str
    length_ratio: float
    token_recall: float
    token_precision: float


def check_merge(parts: list[tuple[str, str]], title: str, text: str) -> MergeCheck:
    """Accept a merge only if it keeps the parts' content: its text is at least MIN_LENGTH_RATIO
    as long as the parts' texts, its title + text contain at least MIN_TOKEN_RECALL of the parts'
    text tokens (multiset; part markers like "(1/2)" do not count), and at least
    MIN_TOKEN_PRECISION of its tokens come from the parts (texts or titles)."""
    src_text = "\n".join(_PART_MARK.sub(" ", x) for _, x in parts)
    src_titles = "\n".join(t for t, _ in parts)
    ratio = len(text.strip()) / max(len(src_text.strip()), 1)
    src, out = _tokens(src_text), _tokens(f"{title}\n{text}")
    recall = sum((src & out).values()) / max(sum(src.values()), 1)
    precision = sum((out & (src + _tokens(src_titles))).values()) / max(sum(out.values()), 1)
    reasons = []
    if not text.strip():
        reasons.append("empty text")
    if ratio < MIN_LENGTH_RATIO:
        reasons.append(f"length ratio {ratio:.2f} < {MIN_LENGTH_RATIO}")
    if recall < MIN_TOKEN_RECALL:
        reasons.append(f"token recall {recall:.2f} < {MIN_TOKEN_RECALL}")
    if precision < MIN_TOKEN_PRECISION:
        reasons.append(f"token precision {precision:.2f} < {MIN_TOKEN_PRECISION}")
    return MergeCheck(not reasons, "; ".join(reasons) or "ok", round(ratio, 4), round(recall, 4),
                      round(precision, 4))


# ---------------------------------------------------------------------------------------------
# cache


def cache_key(task: str, payload: Any, model: str, prompt_version: str) -> str:
    blob = json.dumps({"task": task, "input": payload}, sort_keys=True, ensure_ascii=False)
    h = hashlib.sha256(blob.encode()).hexdigest()
    return f"{prompt_version}/{_slug(model)}/{h[:2]}/{h}.json"


def _slug(model: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_") or "model"


# ---------------------------------------------------------------------------------------------
# the two tasks, batched and cached


@dataclass
class MergeResult:
    title: str
    text: str
    accepted: bool
    note: str  # "ok", or why the rule-based merge was kept: the words
    cached: bool = False
    code: str = "ok"  # and the code: ok, input_too_long, llm_error, unparseable_answer, content_lost


@dataclass
class LLMStats:
    merges_accepted: int = 0
    merges_rejected: int = 0
    reminder_requests: int = 0
    cache_hits: int = 0
    llm_calls: int = 0
    rejections: Counter = field(default_factory=Counter)


class LLMSteps:
    """Merges and reminder labels through one client, with cache and content guard."""

    def __init__(self, client: LLMClient, cache: LLMCacheLike | None, *, max_merge_tokens: int = 4096,
                 max_input_chars: int = 24_000):
        self.client = client
        self.cache = cache
        self.model = client.model
        self.max_merge_tokens = max_merge_tokens
        self.max_input_chars = max_input_chars
        self.stats = LLMStats()

    @property
    def merged_by(self) -> str:
        return f"llm:{self.model}@{MERGE_PROMPT_VERSION}"

    def _run(self, task: str, version: str, payloads: list[Any], requests: list[ChatRequest],
             schema: dict) -> list[tuple[dict | None, str, str, bool]]:
        """(parsed answer or None, error code, error words, from cache) per payload."""
        out: list[tuple[dict | None, str, str, bool] | None] = [None] * len(payloads)
        keys = [cache_key(task, p, self.model, version) for p in payloads]
        todo = []
        for i, key in enumerate(keys):
            hit = self.cache.get(key) if self.cache else None
            if hit is not None:
                self.stats.cache_hits += 1
                err = hit.get("error", "")
                # only unparseable answers are cached as errors (entries of before codes have none)
                out[i] = (hit.get("answer"), hit.get("error_code", "unparseable_answer" if err else ""), err, True)
            else:
                todo.append(i)
        if todo:
            self.stats.llm_calls += len(todo)
            answers = self.client.complete_json([requests[i] for i in todo])
            for i, raw in zip(todo, answers, strict=False):
                if isinstance(raw, Exception):
                    # transport errors are not cached: the next run retries them
                    out[i] = (None, "llm_error", f"llm error: {raw}", False)
                    continue
                try:
                    parsed, code, err = parse_answer(raw, schema), "", ""
                except ValueError as exc:
                    parsed, code, err = None, "unparseable_answer", f"unparseable answer: {exc}"
                if self.cache:
                    self.cache.put(keys[i], {"answer": parsed, "error": err, "error_code": code, "raw": raw,
                                             "model": self.model, "prompt_version": version})
                out[i] = (parsed, code, err, False)
        return out  # type: ignore[return-value]

    def merge(self, items: list[tuple[str, list[tuple[str, str]]]]) -> list[MergeResult]:
        """items: (role, [(title, text), ...]) per multi-post turn."""
        results: list[MergeResult | None] = [None] * len(items)
        payloads, requests, idx = [], [], []
        for i, (role, parts) in enumerate(items):
            size = sum(len(t) + len(x) for t, x in parts)
            if size > self.max_input_chars:
                results[i] = MergeResult("", "", False, f"input too long for the LLM ({size} chars)",
                                         code="input_too_long")
                continue
            payloads.append({"role": role, "parts": parts})
            requests.append(merge_request(role, parts, self.max_merge_tokens))
            idx.append(i)
        for i, (answer, code, err, cached) in zip(idx, self._run("merge", MERGE_PROMPT_VERSION, payloads,
                                                           requests, MERGE_SCHEMA), strict=False):
            parts = items[i][1]
            if answer is None:
                results[i] = MergeResult("", "", False, err, cached, code)
                continue
            check = check_merge(parts, answer["title"], answer["text"])
            results[i] = MergeResult(answer["title"].strip(), answer["text"].strip(), check.ok,
                                     "ok" if check.ok else f"content lost: {check.reason}", cached,
                                     "ok" if check.ok else "content_lost")
        for r in results:
            if r is not None and r.accepted:
                self.stats.merges_accepted += 1
            elif r is not None:
                self.stats.merges_rejected += 1
                self.stats.rejections[r.code] += 1
        return results  # type: ignore[return-value]

    def classify_reminders(self, posts: list[tuple[str, str]]) -> list[bool | None]:
        """(title, text) per candidate post -> True (reminder), False (content), None (no answer)."""
        if not posts:
            return []
        self.stats.reminder_requests += len(posts)
        payloads = [{"title": t, "text": x} for t, x in posts]
        requests = [reminder_request(t, x) for t, x in posts]
        out = []
        for answer, _code, _err, _cached in self._run("reminder", REMINDER_PROMPT_VERSION, payloads,
                                               requests, REMINDER_SCHEMA):
            out.append(None if answer is None else answer["label"] == "reminder")
        return out
