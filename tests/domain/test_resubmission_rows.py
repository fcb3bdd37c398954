"""The resubmissions data around the linking rule (domain/resubmission_rows.py) on payloads and rows
written by hand: the record read from a submission note (API v1 and v2, TMLR's stated earlier
submission), the reason codes of missing input, the card's figures from the config's rows, and the
sides of the Re^2 train/test per chain."""
from __future__ import annotations

import json

from reviewbench_assets.domain.dialogues import split_of
from reviewbench_assets.domain.resubmission_rows import chain_figures, chain_sides, input_issues, submission_record


def _row(note: dict, **fields) -> dict:
    return {"forum_id": note["id"], "title": "", "abstract": "", "authors": [], "decision": "", "status": "active",
            "submission_json": json.dumps(note), **fields}


def test_a_record_from_a_v2_tmlr_note_and_a_v1_note():
    tmlr = {"id": "tmlrB", "cdate": 1_700_000_000_000, "content": {
        "title": {"value": "T"}, "previous_TMLR_submission_url": {"value": "https://openreview.net/forum?id=tmlrA&noteId=x"}}}
    rec = submission_record("tmlr", _row(tmlr, title="Sparse Routing Revisited", decision="Accept as is"), None)
    assert (rec.resubmission_of, rec.time, rec.decision, rec.full_text) == ("tmlrA", 1_700_000_000_000, "Accept as is", None)
    v1 = {"id": "v1A", "cdate": None, "tcdate": 1_600_000_000_000, "content": {"title": "A"}}
    rec = submission_record("iclr-2021", _row(v1, status="withdrawn", authors=["", "Ada Lovelace"]), "text")
    assert (rec.time, rec.decision, rec.authors, rec.full_text, rec.resubmission_of) == (
        1_600_000_000_000, "Withdrawn", ("Ada Lovelace",), "text", None)


def test_another_journal_names_its_earlier_submission_after_its_own_short_name():
    # openreview-py e25fd7d journal/invitation.py:987: f'previous_{short_name}_submission_url'; a
    # value that is no forum link (the form's regex aside) names nothing
    note = {"id": "jB", "cdate": 1, "content": {"previous_DMLR_submission_url": {
        "value": "https://openreview.net/forum?id=jA"}}}
    assert submission_record("dmlr", _row(note), None).resubmission_of == "jA"
    note["content"] = {"previous_TMLR_submission_url": {"value": "see our earlier version"}}
    assert submission_record("tmlr", _row(note), None).resubmission_of is None


def test_missing_input_is_a_reason_code_never_an_error():
    bad = submission_record("iclr-2024", {"forum_id": "x", "title": "Transformers", "abstract": None,
                                          "authors": None, "decision": None, "status": None,
                                          "submission_json": "{truncated"}, "")
    assert (bad.time, bad.abstract, bad.authors) == (None, "", ())
    assert input_issues(bad, has_pdf=True) == ["no_abstract", "short_title", "no_public_authors", "pdf_without_text"]
    assert input_issues(bad, has_pdf=False) == ["no_abstract", "short_title", "no_public_authors"]
    # the placeholder a double-blind venue shows (API v1 blind notes) is no public author either
    assert "no_public_authors" in input_issues(bad.model_copy(update={"authors": ("Anonymous",)}), has_pdf=False)


def _step(fid, vy, decision, accepted):
    return {"forum_id": fid, "venue_year": vy, "decision": decision, "accepted": accepted}


def test_card_figures_count_chains_venue_pairs_and_rejected_then_accepted():
    rows = [  # written by hand: what each chain shows
        {"num_versions": 3, "has_dual_submission": False,  # rejected twice, then accepted: counted once
         "steps": [_step("a", "iclr-2023", "Reject", False), _step("b", "neurips-2023", "Reject", False),
                   _step("c", "iclr-2024", "Accept (poster)", True)]},
        {"num_versions": 2, "has_dual_submission": False,  # withdrawn, then rejected
         "steps": [_step("d", "iclr-2024", "Withdrawn", False), _step("e", "neurips-2024", "Reject", False)]},
        {"num_versions": 2, "has_dual_submission": True,  # a dual submission inside one venue-year
         "steps": [_step("f", "icml-2025", "Reject", False), _step("g", "icml-2025", "Reject", False)]},
    ]
    fig = chain_figures(rows)
    assert fig["chains"] == 3 and fig["versions"] == 7 and fig["dual_submission_chains"] == 1
    assert fig["venue_pairs"] == {"iclr → neurips": 2, "neurips → iclr": 1}
    assert (fig["rejected_then_resubmitted"], fig["rejected_then_accepted"]) == (2, 1)  # a, f (e is last)
    assert (fig["withdrawn_then_resubmitted"], fig["withdrawn_then_accepted"]) == (1, 0)


def test_a_chain_is_on_the_side_any_version_draws_test():
    share = 0.3
    assert split_of("i23_graphs", share) == "test" and split_of("i24_graphs", share) == "train"  # own draws
    sides = chain_sides([[{"forum_id": "i23_graphs", "venue_year": "iclr-2023"},
                          {"forum_id": "i24_graphs", "venue_year": "iclr-2024"}]], share)
    assert sides == {"iclr-2024": {"i24_graphs": "test"}}  # only the version whose own draw differs
    assert split_of("i24_graphs", share, sides["iclr-2024"]) == "test"
    assert chain_sides([[{"forum_id": "i23_rl", "venue_year": "iclr-2023"}]], share) == {}
