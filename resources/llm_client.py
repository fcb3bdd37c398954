"""Dagster-free LLM clients: the OpenAI-compatible HTTP endpoint (vllm serve, llama.cpp server) and
the JSON-file cache of answers. The merge rules and prompts they serve live in the domain, which
hands over requests with the four fields of `ChatRequest` below (the client imports nothing of it)."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from resources.store import Store

CACHE_DIR = "cache/llm"


class ChatRequest(Protocol):
    """What the client reads of a request (the domain's `ChatRequest` dataclass has these fields)."""
    messages: list[dict]
    schema: dict
    schema_name: str
    max_tokens: int


class LLMError(RuntimeError):
    """A request failed (transport, HTTP status, empty answer); returned in place of its answer."""


# ---------------------------------------------------------------------------------------------
# OpenAI-compatible endpoint (vllm serve, llama.cpp server, ...)


@dataclass
class OpenAICompatibleClient:
    """`POST {base_url}/chat/completions` with `response_format={"type": "json_schema", ...}`
    (OpenAI's structured-output shape, accepted by `vllm serve` and llama.cpp's own server), or
    with `structured_output="json_object"`: `{"type": "json_object", "schema": ...}`, the shape
    llama-cpp-python's server (`python -m llama_cpp.server`) accepts (it rejects `json_schema`).
    Requests of a batch run on `concurrency` threads; `requests_made` counts HTTP calls."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 120.0
    concurrency: int = 4
    temperature: float = 0.0
    retries: int = 2
    structured_output: str = "json_schema"  # or "json_object" (llama-cpp-python server)
    requests_made: int = 0

    def _post(self, req: ChatRequest) -> str:
        body = {
            "model": self.model,
            "messages": req.messages,
            "temperature": self.temperature,
            "max_tokens": req.max_tokens,
            "response_format": (
                {"type": "json_object", "schema": req.schema} if self.structured_output == "json_object"
                else {"type": "json_schema",
                      "json_schema": {"name": req.schema_name, "schema": req.schema, "strict": True}}),
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = self.base_url.rstrip("/") + "/chat/completions"
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            self.requests_made += 1
            try:
                http = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers,
                                              method="POST")
                with urllib.request.urlopen(http, timeout=self.timeout_s) as resp:
                    payload = json.loads(resp.read())
                content = payload["choices"][0]["message"].get("content")
                if not content:
                    raise LLMError("empty answer")
                return content
            except urllib.error.HTTPError as exc:
                last = exc
                if exc.code < 500 and exc.code != 429:
                    break
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                last = exc
            except (KeyError, IndexError, ValueError) as exc:
                raise LLMError(f"malformed response: {exc}") from exc
            time.sleep(0.5 * (attempt + 1))
        raise LLMError(f"request failed: {last}")

    def complete_json(self, requests: list[ChatRequest]) -> list[str | LLMError]:
        def one(req: ChatRequest) -> str | LLMError:
            try:
                return self._post(req)
            except LLMError as exc:
                return exc

        if len(requests) <= 1 or self.concurrency <= 1:
            return [one(r) for r in requests]
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(one, requests))


class LLMCache:
    """JSON files under `<root>/cache/llm/<prompt_version>/<model>/<h[:2]>/<h>.json`."""

    def __init__(self, store: Store):
        self.store = store

    def get(self, key: str) -> dict | None:
        value = self.store.read_json_or_none(self.store.path(CACHE_DIR, key))  # corrupt entry: a miss
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        self.store.write_json(self.store.path(CACHE_DIR, key), value)


# ---- vLLM offline batch inference in Ray (`ray.data.llm`; GPU machines, extra `gpu`) --------------------
def vllm_row(req: ChatRequest) -> dict:
    """One Ray Data row for the vLLM processor: chat messages + greedy sampling with the JSON
    schema as structured output (a JSON string, so that the row stays Arrow-friendly)."""
    return {"messages": req.messages,
            "sampling_params": {"temperature": 0.0, "max_tokens": req.max_tokens,
                                "structured_outputs": {"json": json.dumps(req.schema)}}}


class VLLMRayClient:
    """`complete_json` as one Ray Data job per batch (unverified here: needs GPUs and `ray[llm]`)."""

    def __init__(self, resource):  # resources.LLMResource
        self.resource = resource
        self.model = resource.model
        self._processor = None

    def _build(self):
        try:
            import ray
            from ray.data.llm import build_processor, vLLMEngineProcessorConfig
        except ImportError as exc:  # pragma: no cover - GPU machines only
            raise RuntimeError("backend vllm_ray needs the `gpu` extra (ray[llm], vllm)") from exc
        config = vLLMEngineProcessorConfig(**self.resource.vllm_processor_config())
        self._processor = build_processor(
            config,
            preprocess=lambda row: {"idx": row["idx"], **json.loads(row["request"])},
            postprocess=lambda row: {"idx": row["idx"], "answer": row.get("generated_text", "")},
        )
        return ray

    def complete_json(self, requests: list[ChatRequest]) -> list[str | LLMError]:  # pragma: no cover
        ray = self._build() if self._processor is None else __import__("ray")
        rows = [{"idx": i, "request": json.dumps(vllm_row(r))} for i, r in enumerate(requests)]
        out = self._processor(ray.data.from_items(rows)).take_all()
        answers: list[str | LLMError] = [LLMError("no answer")] * len(requests)
        for row in out:
            answers[int(row["idx"])] = row["answer"] or LLMError("empty answer")
        return answers
