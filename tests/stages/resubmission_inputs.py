"""Parsed forums written by hand for the resubmissions stage and the split that reads its chains: the
parsed table's rows with the submission note as the API sends it (v2 content values wrapped in
{"value": ...}, `cdate` in ms), and a paper's text where one was read. Which forums are versions of one
paper is stated here, by the author of each case."""
from __future__ import annotations

import json

import pyarrow as pa

from resources.store import Store, parquet_writer
from reviewbench_assets.domain.schema import MARKDOWN_SCHEMA, PARSED_SCHEMA
from reviewbench_assets.io.layout import paths

ABSTRACT_V1 = (
    "Large language models often fail to follow multi-step instructions when the steps interact. We "
    "introduce a curriculum that orders training instructions by the number of dependent steps and show "
    "that fine-tuning on this curriculum improves exact-match accuracy on three compositional benchmarks "
    "by up to nine points, with no change to the model architecture or inference cost.")
# the next venue's version: first sentence rewritten, a number updated, a result added
ABSTRACT_V2 = (
    "Instruction-tuned language models struggle when the steps of an instruction depend on each other. We "
    "introduce a curriculum that orders training instructions by the number of dependent steps and show "
    "that fine-tuning on this curriculum improves exact-match accuracy on four compositional benchmarks "
    "by up to eleven points, with no change to the model architecture or inference cost. The gains hold "
    "for models from 1B to 70B parameters.")
OTHER_ABSTRACT = (
    "Graph neural networks oversmooth node features as depth grows. We analyse the spectrum of the "
    "propagation operator and propose a residual normalisation that keeps feature variance bounded, "
    "training 64-layer networks that match shallow ones on citation and protein benchmarks.")
THIRD_ABSTRACT = (
    "Offline reinforcement learning suffers from value overestimation on actions absent from the data. "
    "We penalise the critic by an ensemble's disagreement and report state-of-the-art returns on the "
    "locomotion and maze tasks of a standard offline benchmark suite.")


def forum(fid: str, title: str, abstract: str, authors: list[str], decision: str, cdate: int,
          status: str = "active", content: dict | None = None, raw: str | None = None) -> dict:
    note = {"id": fid, "forum": fid, "cdate": cdate, "content": {
        "title": {"value": title}, "abstract": {"value": abstract}, "authors": {"value": authors},
        **{k: {"value": v} for k, v in (content or {}).items()}}}
    return {"forum_id": fid, "title": title, "abstract": abstract, "authors": authors, "decision": decision,
            "status": status, "venue": "", "submission_json": raw if raw is not None else json.dumps(note),
            "reviews": [], "posts": [], "warnings": []}


def write_parsed(store: Store, pk: str, forums: list[dict], texts: dict[str, str] | None = None) -> None:
    """The venue-year's parsed table (and its markdown table when `texts` is given: forum id -> the
    paper's text, "" for a PDF that gave none)."""
    for rel, rows, schema in ((paths.parsed(pk), forums, PARSED_SCHEMA),
                              (paths.markdown(pk), [{"forum_id": f, "markdown": t, "pdf_sha256": f"{i:064d}"}
                                                    for i, (f, t) in enumerate((texts or {}).items())],
                               MARKDOWN_SCHEMA)):
        if schema is MARKDOWN_SCHEMA and texts is None:
            continue
        path = store.path(rel)
        store.fs.create_dir(path.rsplit("/", 1)[0], recursive=True)
        with parquet_writer(store.fs, path, schema) as w:
            w.write_table(pa.Table.from_pylist(rows, schema=schema))


# The hand cases: iclr-2024's rejected paper comes back, retitled and rewritten, at neurips-2024.
V1 = forum("iclr24_a", "Curriculum Learning for Compositional Instruction Following", ABSTRACT_V1,
           ["Maria Lopez", "Jun Park"], "Reject", 1_695_000_000_000)
V2 = forum("nips24_b", "Ordering Instructions by Dependency Depth Helps Language Models Compose", ABSTRACT_V2,
           ["Jun Park", "Maria Lopez", "Wei Chen"], "Accept (poster)", 1_715_000_000_000)
# its third version, at a later venue-year, under the second title
V3 = forum("iclr25_c", "Ordering Instructions by Dependency Depth Helps Language Models Compose", ABSTRACT_V2,
           ["J. Park", "M. Lopez", "W. Chen"], "Accept (Poster)", 1_727_000_000_000)
GRAPH = forum("iclr24_g", "Residual Normalisation Against Oversmoothing in Deep Graph Networks", OTHER_ABSTRACT,
              ["Ana Silva"], "Accept (poster)", 1_695_100_000_000)
RL = forum("nips24_r", "Ensemble Disagreement Penalties for Offline Reinforcement Learning", THIRD_ABSTRACT,
           ["Omar Haddad", "Li Na"], "Reject", 1_715_100_000_000)
# bad input: no abstract and a one-word title; a submission note that is not JSON
BARE = forum("iclr24_bare", "Transformers", "", [], "Reject", 1_695_200_000_000)
GARBLED = forum("nips24_garbled", "A Study of Sparse Mixture of Experts Routing at Scale", "", [], "",
                1_715_200_000_000, status="withdrawn", raw="{not json")
