"""The LLM domain without a model: content guard, answer parsing, cache keys, back-end config."""
from __future__ import annotations

import json

import pytest

from resources import LLMResource
from resources.llm_client import LLMCache, OpenAICompatibleClient, VLLMRayClient, vllm_row
from resources.store import store_from_uri
from reviewbench_assets.domain.llm import (
    MERGE_PROMPT_VERSION,
    MERGE_SCHEMA,
    REMINDER_SCHEMA,
    LLMSteps,
    cache_key,
    check_merge,
    merge_request,
    parse_answer,
)

PARTS = [("Response to Reviewer abcd (1/2)", "We thank the reviewer. Q1: the ablation in Table 3 "
          "shows a 2.1 point gain from the gating module on all five datasets."),
         ("Response to Reviewer abcd (2/2)", "Q2: we added a comparison with FlashAttention and "
          "report wall-clock time per step of 41 ms versus 57 ms for the baseline.")]


def test_guard_accepts_faithful_merge():
    text = PARTS[0][1] + "\n\n" + PARTS[1][1]
    c = check_merge(PARTS, "Response to Reviewer abcd", text)
    assert c.ok, c.reason
    assert c.token_recall > 0.95 and c.token_precision > 0.95


def test_guard_rejects_truncated_and_invented_merges():
    short = check_merge(PARTS, "Response", PARTS[0][1])
    assert not short.ok and "length ratio" in short.reason and "token recall" in short.reason
    invented = check_merge(PARTS, "Response", PARTS[0][1] + " " + PARTS[1][1] + " " +
                           "completely unrelated marketing sentence about bananas " * 8)
    assert not invented.ok and "token precision" in invented.reason
    assert not check_merge(PARTS, "x", "").ok


def test_parse_answer_enforces_schema():
    assert parse_answer('{"title": "t", "text": "x"}', MERGE_SCHEMA) == {"title": "t", "text": "x"}
    for bad in ("not json", "[1]", '{"title": "t"}', '{"title": 1, "text": "x"}'):
        with pytest.raises(ValueError):
            parse_answer(bad, MERGE_SCHEMA)
    with pytest.raises(ValueError):
        parse_answer('{"label": "maybe"}', REMINDER_SCHEMA)


def test_cache_key_depends_on_input_model_and_prompt_version():
    k = cache_key("merge", {"a": 1}, "m", MERGE_PROMPT_VERSION)
    assert k == cache_key("merge", {"a": 1}, "m", MERGE_PROMPT_VERSION)
    assert len({k, cache_key("merge", {"a": 2}, "m", MERGE_PROMPT_VERSION),
                cache_key("merge", {"a": 1}, "m2", MERGE_PROMPT_VERSION),
                cache_key("merge", {"a": 1}, "m", "merge-v2")}) == 4
    assert k.startswith(f"{MERGE_PROMPT_VERSION}/m/")


def test_merge_request_carries_every_part_and_schema():
    req = merge_request("author", PARTS, 512)
    body = req.messages[-1]["content"]
    assert all(t in body and x in body for t, x in PARTS)
    assert req.schema == MERGE_SCHEMA and req.max_tokens == 512


class _Echo:
    """A deterministic in-process model: concatenates (good) or truncates (bad) the parts."""

    def __init__(self, truncate: bool):
        self.model, self.truncate, self.calls = "echo", truncate, 0

    def complete_json(self, requests):
        self.calls += len(requests)
        out = []
        for r in requests:
            posts = r.messages[-1]["content"].split("### Post ")[1:]
            texts = [p.split("\n\n", 1)[1].strip() for p in posts]
            text = texts[0][:40] if self.truncate else "\n\n".join(texts)
            out.append(json.dumps({"title": "Merged", "text": text}))
        return out


@pytest.mark.parametrize("truncate", [False, True])
def test_steps_guard_and_cache(tmp_path, truncate):
    store = store_from_uri(str(tmp_path))
    model = _Echo(truncate)
    steps = LLMSteps(model, LLMCache(store))
    [res] = steps.merge([("author", PARTS)])
    assert res.accepted is (not truncate)
    if truncate:
        assert res.note.startswith("content lost")
    again = LLMSteps(model, LLMCache(store))
    [res2] = again.merge([("author", PARTS)])
    assert model.calls == 1 and res2.cached and res2.accepted == res.accepted
    assert again.stats.llm_calls == 0 and again.stats.cache_hits == 1


def test_resource_backends():
    assert LLMResource().client() is None
    c = LLMResource(backend="openai", model="m", base_url="http://127.0.0.1:1/v1").client()
    assert isinstance(c, OpenAICompatibleClient) and c.model == "m"
    with pytest.raises(ValueError):
        LLMResource(backend="openai", model="m").client()
    assert isinstance(LLMResource(backend="vllm_ray", model="Qwen/Qwen3-8B").client(), VLLMRayClient)


def test_vllm_config_and_rows():
    r = LLMResource(backend="vllm_ray", model="Qwen/Qwen3-8B", batch_size=32, concurrency=2,
                    tensor_parallel_size=2, accelerator_type="H100")
    cfg = r.vllm_processor_config()
    assert cfg["model_source"] == "Qwen/Qwen3-8B" and cfg["batch_size"] == 32
    assert cfg["engine_kwargs"]["tensor_parallel_size"] == 2 and cfg["accelerator_type"] == "H100"
    row = vllm_row(merge_request("author", PARTS, 256))
    assert json.loads(row["sampling_params"]["structured_outputs"]["json"]) == MERGE_SCHEMA
    assert row["sampling_params"]["temperature"] == 0.0 and row["messages"][0]["role"] == "system"
    try:  # with the `gpu` extra the config must also validate against Ray's own model
        from ray.data.llm import vLLMEngineProcessorConfig
    except ImportError:
        return
    vLLMEngineProcessorConfig(**cfg)


def test_unreachable_endpoint_is_an_error_not_data(tmp_path):
    client = OpenAICompatibleClient(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=2, retries=0)
    steps = LLMSteps(client, LLMCache(store_from_uri(str(tmp_path))))
    [res] = steps.merge([("author", PARTS)])
    assert not res.accepted and res.note.startswith("llm error")
    # transport errors are not cached: a later run retries
    assert not list(tmp_path.rglob("*.json"))
