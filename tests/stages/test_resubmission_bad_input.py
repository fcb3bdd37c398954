"""Bad input through the resubmissions stage (issue 37: "a forum with no abstract, a title of one word,
a PDF without text still gets linked or left alone with a reason, never crashes the corpus asset"):
each forum is written by hand as the API gives it, and is either linked on what it carries or left
alone with a reason code, and what it lacks is counted in the stage's figures."""
from __future__ import annotations

import json

import pyarrow.parquet as pq

from resources.store import store_from_uri
from reviewbench_assets.io.layout import paths
from reviewbench_assets.stages.resubmission_stage import ResubmissionsStage
from tests.stages.figures_check import assert_every_figure
from tests.stages.resubmission_inputs import ABSTRACT_V1, ABSTRACT_V2, forum, write_parsed

KEYS = ["iclr-2019", "iclr-2024", "neurips-2024"]
T19, T24, N24 = 1_538_000_000_000, 1_695_000_000_000, 1_715_000_000_000

# a version under review with no abstract in the record, its title and authors kept from the one before
NO_ABSTRACT = forum("nips_noabs", "Curriculum Learning for Compositional Instruction Following", "",
                    ["Maria Lopez", "Jun Park"], "", N24 + 1)
ONE_WORD = forum("nips_oneword", "Compose", ABSTRACT_V2, ["Jun Park", "Maria Lopez", "Wei Chen"], "Accept (poster)", N24 + 2)
EARLIER = forum("iclr_v1", "Curriculum Learning for Compositional Instruction Following", ABSTRACT_V1,
                ["Maria Lopez", "Jun Park"], "Reject", T24)
NO_AUTHORS = forum("iclr_noauth", "Residual Normalisation Against Oversmoothing in Deep Graph Networks",
                   "Graph neural networks oversmooth node features as depth grows; we bound the variance.", [],
                   "Reject", T24 + 1)
# API v1's withdrawn blind note: the venue hides its fields (content '' and the authors' placeholder)
WITHDRAWN_HIDDEN = forum("iclr_wd", "", "", ["Anonymous"], "", T19, status="withdrawn")
TEXTLESS_PDF = forum("iclr_scan", "On", "", [], "Reject", T19 + 1)  # a scan: its PDF gave no text
LATEX_TITLE = forum("iclr_latex", r"Sparse Recovery with $\ell_1$ Penalties: Beyond the Lasso for Écoles",
                    "We study " + r"$\ell_1$-penalised recovery in the high-dimensional regime where the design has "
                    "correlated columns, and show that a reweighted program attains the oracle rate under a "
                    "restricted eigenvalue condition on Gaussian and sub-Gaussian designs.",
                    ["Élodie Bréhier", "Søren Ørsted"], "Reject", T19 + 2)
LATEX_LATER = forum("nips_latex", "Beyond the Lasso: ℓ1 Penalties for Sparse Recovery with Correlated Designs",
                    "We study ℓ1-penalised recovery in the high-dimensional regime where the design has "
                    "correlated columns, and show that a reweighted program attains the oracle rate under a "
                    "restricted eigenvalue condition on Gaussian and sub-Gaussian designs, with experiments on "
                    "genomics data.", ["Soren Orsted", "Elodie Brehier"], "Accept (poster)", N24 + 3)
LONG = forum("nips_long", "A Very Long Abstract About Attention", " ".join(["attention heads route tokens"] * 5000),
             ["Ana Silva"], "Reject", N24 + 4)
NULL_NOTE = forum("nips_null", "Null Submission Note Here", "", [], "", N24 + 5, raw="null")


def test_bad_input_is_linked_on_what_it_carries_or_left_alone_with_a_reason_and_counted(tmp_path):
    store = store_from_uri(str(tmp_path))
    write_parsed(store, "iclr-2019", [WITHDRAWN_HIDDEN, TEXTLESS_PDF, LATEX_TITLE], texts={"iclr_scan": ""})
    write_parsed(store, "iclr-2024", [EARLIER, NO_AUTHORS])
    write_parsed(store, "neurips-2024", [NO_ABSTRACT, ONE_WORD, LATEX_LATER, LONG, NULL_NOTE])
    result = ResubmissionsStage(KEYS)(store)  # no crash
    assert_every_figure(result)
    links = {(r["earlier"], r["later"]): r for r in pq.read_table(tmp_path / paths.RESUBMISSION_LINKS).to_pylist()}
    # truth by hand: the one-word title's abstract is the earlier version's rewritten; the title and
    # authors of the version without abstract are the earlier's; the LaTeX/accented title's paper came back
    assert set(links) >= {("iclr_v1", "nips_oneword"), ("iclr_v1", "nips_noabs"), ("iclr_latex", "nips_latex")}
    assert links[("iclr_latex", "nips_latex")]["authors_score"] == 1.0  # accents folded: Søren = Soren
    assert not {k for k in links if {"nips_long", "iclr_noauth", "nips_null", "iclr_wd", "iclr_scan"} & set(k)}
    left = {r["forum_id"]: r["reason"] for r in pq.read_table(tmp_path / paths.RESUBMISSION_LEFT_ALONE).to_pylist()}
    assert left == {"iclr_wd": "too_little_text", "iclr_scan": "too_little_text"}
    f = result.figures
    assert f["submissions"] == 10 and f["left_alone"] == {"too_little_text": 2}
    # what each lacks, per reason code: no abstract (noabs, withdrawn, scan, null note), a title under
    # three words (one-word, withdrawn's empty title, the scan's "On"), no public author (the withdrawn
    # blind note's placeholder, no authors, the scan, the null note), the scan's PDF without text
    assert f["input_issues"] == {"no_abstract": 4, "no_public_authors": 4, "pdf_without_text": 1, "short_title": 3}
    # every forum is somewhere: in a link, or left alone, or a record the rule found no version of
    chains = pq.read_table(tmp_path / paths.RESUBMISSION_CHAINS).to_pylist()
    assert {s["forum_id"] for c in chains for s in c["steps"]} == {"iclr_v1", "nips_oneword", "nips_noabs",
                                                                   "iclr_latex", "nips_latex"}


def test_a_note_whose_fields_have_odd_types_still_gives_a_record(tmp_path):
    # content values of the wrong type (a number, a list, null) and a cdate that is not a number
    raw = json.dumps({"id": "odd", "cdate": "yesterday", "content": {"title": {"value": 7}, "abstract": None},
                      "previous_TMLR_submission_url": 3})
    odd = forum("odd", "", "", [], "", 0, raw=raw)
    store = store_from_uri(str(tmp_path))
    write_parsed(store, "iclr-2024", [odd, EARLIER])
    result = ResubmissionsStage(KEYS)(store)
    assert result.figures["left_alone"] == {"too_little_text": 1}
    assert result.figures["submissions"] == 2
