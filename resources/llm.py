"""The LLM behind the dialogue merge: none (rule-based), an OpenAI-compatible endpoint, or vLLM
offline batch inference in Ray (`ray.data.llm`, GPU machines, extra `gpu`).

- `backend="none"` (default): no LLM; dialogues are merged by rules and say `rule-based`.
- `backend="openai"`: any server speaking `/v1/chat/completions` with JSON-schema
  `response_format` (`vllm serve <model>`, `python -m llama_cpp.server --model x.gguf`).
- `backend="vllm_ray"`: a Ray Data pipeline (`ray.data.llm.build_processor` over a
  `vLLMEngineProcessorConfig`) runs each batch of requests on the cluster's GPUs, structured
  output through vLLM's `structured_outputs={"json": schema}`. Not exercised on CPU (no vLLM
  here); only the configuration is unit-tested.
"""
from __future__ import annotations

import json
from typing import Literal

import dagster as dg
from pydantic import Field

from resources.llm_client import ChatRequest, LLMError, OpenAICompatibleClient


class LLMResource(dg.ConfigurableResource):
    backend: Literal["none", "openai", "vllm_ray"] = Field(
        default="none", description="none: rule-based merge only; openai: HTTP endpoint; vllm_ray: Ray Data + vLLM")
    model: str = Field(default="", description="model name sent to the endpoint / vLLM model source (HF id or path)")
    base_url: str = Field(default="", description="openai backend: e.g. http://127.0.0.1:8000/v1")
    api_key: str | None = Field(default=None, description="openai backend: bearer token (EnvVar)")
    timeout_s: float = Field(default=120.0, description="openai backend: per request")
    structured_output: Literal["json_schema", "json_object"] = Field(
        default="json_schema", description="openai backend: response_format shape; json_object for "
        "llama-cpp-python's server, json_schema for vllm serve / OpenAI")
    concurrency: int = Field(default=4, description="openai: parallel requests; vllm_ray: engine replicas")
    batch_size: int = Field(default=64, description="requests per LLM batch (both back ends)")
    max_merge_tokens: int = Field(default=4096, description="answer budget of one merge")
    max_input_chars: int = Field(default=24_000, description="longer turns are not sent (rule-based merge kept)")
    tensor_parallel_size: int = Field(default=1, description="vllm_ray: GPUs per engine")
    max_model_len: int = Field(default=16384, description="vllm_ray: context length")
    accelerator_type: str | None = Field(default=None, description="vllm_ray: e.g. H100")

    @classmethod
    def from_env(cls) -> LLMResource:
        """REVIEWBENCH_LLM_BACKEND [none], REVIEWBENCH_LLM_MODEL, REVIEWBENCH_LLM_BASE_URL,
        REVIEWBENCH_LLM_CONCURRENCY; REVIEWBENCH_LLM_API_KEY only as an EnvVar (never shown)."""
        import os

        env = os.environ.get
        return cls(backend=env("REVIEWBENCH_LLM_BACKEND", "none"), model=env("REVIEWBENCH_LLM_MODEL", ""),
                   base_url=env("REVIEWBENCH_LLM_BASE_URL", ""),
                   concurrency=int(env("REVIEWBENCH_LLM_CONCURRENCY", "4")),
                   structured_output=env("REVIEWBENCH_LLM_STRUCTURED_OUTPUT", "json_schema"),
                   api_key=dg.EnvVar("REVIEWBENCH_LLM_API_KEY") if env("REVIEWBENCH_LLM_API_KEY") else None)

    def client(self):
        """The `domain.llm.LLMClient` for this configuration, or None (backend `none`)."""
        if self.backend == "none":
            return None
        if not self.model:
            raise ValueError("LLMResource: `model` is required for backend " + self.backend)
        if self.backend == "openai":
            if not self.base_url:
                raise ValueError("LLMResource: `base_url` is required for backend openai")
            return OpenAICompatibleClient(base_url=self.base_url, model=self.model, api_key=self.api_key,
                                          timeout_s=self.timeout_s, concurrency=self.concurrency,
                                          structured_output=self.structured_output)
        return VLLMRayClient(self)

    # ---- vLLM in Ray ------------------------------------------------------------------------
    def vllm_processor_config(self) -> dict:
        """Keyword arguments of `ray.data.llm.vLLMEngineProcessorConfig` (plain data, testable
        without vLLM)."""
        cfg = {
            "model_source": self.model,
            "engine_kwargs": {"tensor_parallel_size": self.tensor_parallel_size,
                              "max_model_len": self.max_model_len,
                              "enable_prefix_caching": True},
            "batch_size": self.batch_size,
            "concurrency": self.concurrency,
        }
        if self.accelerator_type:
            cfg["accelerator_type"] = self.accelerator_type
        return cfg


def vllm_row(req: ChatRequest) -> dict:
    """One Ray Data row for the vLLM processor: chat messages + greedy sampling with the JSON
    schema as structured output (a JSON string, so that the row stays Arrow-friendly)."""
    return {"messages": req.messages,
            "sampling_params": {"temperature": 0.0, "max_tokens": req.max_tokens,
                                "structured_outputs": {"json": json.dumps(req.schema)}}}


class VLLMRayClient:
    """`complete_json` as one Ray Data job per batch (unverified here: needs GPUs and `ray[llm]`)."""

    def __init__(self, resource: LLMResource):
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
