"""`vllm` OCR engine: a vision-language OCR model on GPU actors through Ray Data's LLM API.

    pages (flat_map, CPU: pypdfium2 render at 1288 px, JPEG) -> build_processor(vLLMEngineProcessorConfig)
        preprocess: JPEG -> OpenAI chat message with an image_url part + sampling params
        PrepareMultimodalStage -> ChatTemplate -> Tokenize -> vLLMEngineStage (GPU actors) -> Detokenize
        postprocess: generated_text -> page_text (front matter stripped); the paper's pages then go
        through ``ocr_ray.layout.compose_pages`` (Unicode cleaning, repeated header/footer lines)

API checked against the installed ray 2.60 (`ray/data/llm.py`): `build_processor(config,
preprocess=, postprocess=)`, `vLLMEngineProcessorConfig(model_source, engine_kwargs, batch_size,
concurrency, accelerator_type, prepare_multimodal_stage, should_continue_on_error, ...)`; rows need
`messages` and `sampling_params`; outputs carry `generated_text`.

Default model (docs/ocr-research.md §1b, §1c): allenai/olmOCR-2-7B-1025-FP8 -- olmOCR-Bench 82.4
(measured by the benchmark's authors, not self-reported), Apache-2.0, Qwen2.5-VL architecture
served natively by vLLM, ~3.9-4.2 pages/s per H100 published ($176-190 per million pages). The
faster candidate is LightOnOCR-2-1B (5.71 pages/s/H100 published for v1, olmOCR-Bench 83.2 claimed
through a secondary source only): set REVIEWBENCH_VLLM_MODEL to try it.

NOT VERIFIED ON A GPU: no GPU and no vllm here; only the configuration building is unit-tested.
"""
from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass, field
from typing import Any

from ocr_ray.engine_base import Engine, EngineNotAvailableError, normalize_page_text

DEFAULT_MODEL = "allenai/olmOCR-2-7B-1025-FP8"
# olmOCR-2 was trained without anchor text ("no anchoring" prompt, research note §1b): ask for
# the page as markdown, equations in LaTeX, tables in HTML.
DEFAULT_PROMPT = (
    "Attached is one page of a document that you must process. Just return the plain text "
    "representation of this document as if you were reading it naturally. Convert equations to "
    "LaTeX and tables to HTML. If there are any figures or charts, label them with the following "
    "markdown syntax ![Alt text describing the contents of the figure](page_startx_starty_width_height.png). "
    "Return your output as markdown, with a front matter section on top specifying values for the "
    "primary_language, is_rotation_valid, rotation_correction, is_table, and is_diagram parameters."
)
_FRONT_MATTER = re.compile(r"\A\s*---\s*\n.*?\n---\s*\n?", re.S)


def strip_front_matter(text: str) -> str:
    """olmOCR-style replies start with a YAML front matter block; keep only the page text."""
    return _FRONT_MATTER.sub("", text or "", count=1)


@dataclass
class VllmEngine(Engine):
    """Configuration of the vLLM stage; `build_stage` turns a page dataset into page texts.

    model: Hugging Face id; batch_size: rows per vLLM engine call; max_tokens: output tokens per
    page; num_gpus: tensor-parallel GPUs per engine replica; concurrency: engine replicas (actors);
    accelerator_type: e.g. "H100" / "L40S" (node constraint) or None.
    """

    name: str = "vllm"
    model: str | None = DEFAULT_MODEL
    needs_image: bool = True
    uses_actor: bool = True
    num_cpus: float = 0.5  # the render stage's share: vLLM actors get their CPUs from Ray Data LLM
    batch_size: int = 64
    max_tokens: int = 8000
    num_gpus: float = 1
    concurrency: int = 1
    accelerator_type: str | None = None
    max_model_len: int = 16384
    max_num_seqs: int = 512
    temperature: float = 0.1
    prompt: str = DEFAULT_PROMPT
    engine_kwargs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> VllmEngine:
        env = os.environ
        kw: dict[str, Any] = {}
        for key, name, cast in (("REVIEWBENCH_VLLM_MODEL", "model", str),
                                ("REVIEWBENCH_VLLM_BATCH_SIZE", "batch_size", int),
                                ("REVIEWBENCH_VLLM_MAX_TOKENS", "max_tokens", int),
                                ("REVIEWBENCH_VLLM_GPUS", "num_gpus", int),
                                ("REVIEWBENCH_VLLM_CONCURRENCY", "concurrency", int),
                                ("REVIEWBENCH_VLLM_ACCELERATOR", "accelerator_type", str)):
            if env.get(key):
                kw[name] = cast(env[key])
        return cls(**kw)

    @property
    def version(self) -> str:
        return f"{self.model};max_tokens={self.max_tokens};prompt={hash_text(self.prompt)}"

    def check_available(self) -> None:
        try:
            import ray.data.llm  # noqa: F401  (needs aiohttp etc. from ray[llm])
            import vllm  # noqa: F401
        except ImportError as exc:
            raise EngineNotAvailableError(
                "OCR engine 'vllm' needs a GPU and the gpu extra (pip install 'reviewbench[gpu]'): "
                f"{exc}") from None

    def process_batch(self, pages):  # the stage is built by build_stage instead
        raise NotImplementedError("the vllm engine runs through build_stage (ray.data.llm)")

    # -- configuration (unit-tested on CPU) ---------------------------------------------------

    def config_kwargs(self) -> dict[str, Any]:
        """Arguments of `vLLMEngineProcessorConfig`."""
        engine_kwargs = {
            "max_model_len": self.max_model_len,
            "max_num_seqs": self.max_num_seqs,
            "limit_mm_per_prompt": {"image": 1, "video": 0},
            "tensor_parallel_size": int(self.num_gpus),
            "enable_prefix_caching": False,  # every prompt is a different image
            **self.engine_kwargs,
        }
        kwargs: dict[str, Any] = {
            "model_source": self.model,
            "engine_kwargs": engine_kwargs,
            "batch_size": self.batch_size,
            "concurrency": self.concurrency,
            "prepare_multimodal_stage": {"enabled": True},
            "should_continue_on_error": True,  # a failed page becomes an error row, not a dead job
        }
        if self.accelerator_type:
            kwargs["accelerator_type"] = self.accelerator_type
        return kwargs

    def processor_config(self):
        from ray.data.llm import vLLMEngineProcessorConfig

        return vLLMEngineProcessorConfig(**self.config_kwargs())

    def preprocess(self, row: dict[str, Any]) -> dict[str, Any]:
        """Page row -> chat request. Rows that need no model (error rows, pages that `auto`
        routed to the text layer) still pass through (order is kept) as a 1-token text prompt."""
        keep = {k: row[k] for k in ("task_index", "forum_id", "page_index", "num_pages", "error", "text",
                                    "route")}
        keep["notes"] = row.get("notes") or ""  # the file's problems PDFium read through (pdf_pages)
        if row["error"] or (row.get("route") or self.name).split(":")[0] != self.name or not row["image"]:
            return {**keep, "messages": [{"role": "user", "content": "."}],
                    "sampling_params": {"max_tokens": 1, "temperature": 0.0}, "passthrough": True}
        url = "data:image/jpeg;base64," + base64.b64encode(row["image"]).decode()
        return {**keep, "passthrough": False,
                "messages": [{"role": "user", "content": [
                    {"type": "image_url", "image_url": {"url": url}},
                    {"type": "text", "text": self.prompt}]}],
                "sampling_params": {"max_tokens": self.max_tokens, "temperature": self.temperature}}

    @staticmethod
    def postprocess(row: dict[str, Any]) -> dict[str, Any]:
        if row["passthrough"]:
            text = "" if row["error"] else (row["text"] or "")  # the text layer's layout JSON
        elif row.get("__inference_error__"):
            return {**{k: row[k] for k in ("task_index", "forum_id", "page_index", "num_pages")},
                    "error": f"vllm failed on page {row['page_index'] + 1}: {row['__inference_error__']}"[:300],
                    "page_text": "", "page_engine": row.get("route", "vllm")}
        else:
            text = normalize_page_text(strip_front_matter(row.get("generated_text") or ""))
        return {**{k: row[k] for k in ("task_index", "forum_id", "page_index", "num_pages", "error")},
                "page_text": text, "page_engine": row.get("route", "vllm"), "notes": row.get("notes") or ""}

    def build_stage(self, pages):
        """Ray Data page rows -> rows with page_text / page_engine (the pipeline's engine stage)."""
        self.check_available()
        from ray.data.llm import build_processor

        processor = build_processor(self.processor_config(), preprocess=self.preprocess,
                                    postprocess=self.postprocess)
        return processor(pages)


def hash_text(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:8]
