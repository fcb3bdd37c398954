"""Resubmission pairs written by hand as real authors make them, and hard negatives (issue 37: the
judged case is real pairs with no full text, only what the records carry). Each case states by hand
whether its two records are versions of one paper; nothing here is derived from the linking rule.
The records and the two lists of pairs are data: resubmission_pairs.yaml, beside this module.

How the versions were written: the later version is retitled (a new title, or the method's name put
first), its abstract rewritten by 30-60 % (opening sentence rewritten, numbers and datasets updated,
results added, a claim rephrased), its author list reordered and grown. Where the earlier venue was
double-blind and rejected, its authors are what the API shows a reader: "Anonymous" in an API v1
blind note (openreview-py, openreview/conference/conference.py `create_blind_submissions`:
`blind_content = {'authors': ['Anonymous'], 'authorids': [<Paper<N>/Authors group>]}`), nothing in an
API v2 note whose `authors` field has readers of its own (docs/openreview-api.md, the submission's
fields). Hard negatives: the same topic with the same keywords and the area's stock opening sentence
(a different group), and a follow-up paper of the same group (authors shared, problem sentence reused)."""
from __future__ import annotations

from pathlib import Path

import yaml

from reviewbench_assets.domain.resubmissions import Submission

_DATA = yaml.safe_load(Path(__file__).with_suffix(".yaml").read_text(encoding="utf-8"))
RECORDS = {id: Submission(id=id, **fields) for id, fields in _DATA["records"].items()}
SAME_PAPER = [(RECORDS[a], RECORDS[b]) for a, b in _DATA["same_paper"]]
DIFFERENT = [(RECORDS[a], RECORDS[b]) for a, b in _DATA["different"]]

# the records the probes name: P2 (ICLR 2019 blind -> ICML 2019), P3 (NeurIPS 2023 -> ICLR 2025 under
# review, authors hidden by v2), P6 (ICLR 2020 blind -> ICLR 2021, ~60 % paraphrased), N5 (two blind
# generic titles without abstract)
NF_A, NF_B = RECORDS["nf_iclr19"], RECORDS["nf_icml19"]
KV_A, KV_B = RECORDS["kv_nips23"], RECORDS["kv_iclr25"]
PEV_A, PEV_B = RECORDS["pev_iclr20"], RECORDS["pev_iclr21"]
ANON_GEN_A, ANON_GEN_B = RECORDS["gen_iclr18"], RECORDS["gen_iclr19"]
