"""The replica's note-level `license` takes the values the real API takes (issue 37 item 1). Truth written by
hand from openreview-py e25fd7da055e7ae3435df51dbdadf2760c59d281: venue_request/venue_request.py:1469 (the
seven values a venue may offer), venue/venue.py:82 (a venue's default 'CC BY 4.0'), journal/journal.py:661 (a
journal's 'CC BY-SA 4.0'); and from the recorded ICLR 2026 forum, whose replies all carry their submission's
license (tests/fixtures/openreview-samples/iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json)."""
from collections import Counter

from openreview_replica import build_fixtures

API_VALUES = {"CC BY 4.0", "CC BY-SA 4.0", "CC BY-NC 4.0", "CC BY-ND 4.0", "CC BY-NC-SA 4.0", "CC BY-NC-ND 4.0",
              "CC0 1.0"}
KEYS = ["iclr-2026", "neurips-2023", "icml-2025", "colm-2025", "tmlr", "iclr-2020"]


def _licenses(fx, key):
    v = fx.venues[key]
    subs = {fid: v.notes[fid].get("license") for fid in v.forums}
    replies = [(fid, r.get("license")) for fid, rs in v.replies_by_forum.items() for r in rs]
    return subs, replies


def test_v2_notes_carry_an_api_value_mostly_the_venue_default_and_replies_their_submission_s():
    fx = build_fixtures(KEYS, seed=3, n_forums=40, eager_pdfs=False)
    others = Counter()
    for key in ("neurips-2023", "icml-2025", "colm-2025"):
        subs, replies = _licenses(fx, key)
        assert set(subs.values()) <= API_VALUES
        counts = Counter(subs.values())
        assert counts["CC BY 4.0"] > len(subs) / 2, key  # the venue default, most authors keep it
        others.update(x for x in subs.values() if x != "CC BY 4.0")
        assert replies and all(lic == subs[fid] for fid, lic in replies), key
    assert len(others) >= 2  # some authors chose another of the offered licenses
    subs, replies = _licenses(fx, "tmlr")  # a journal: CC BY-SA 4.0
    assert set(subs.values()) == {"CC BY-SA 4.0"} and {lic for _, lic in replies} == {"CC BY-SA 4.0"}
    subs, replies = _licenses(fx, "iclr-2026")  # as recorded: every note CC BY 4.0
    assert set(subs.values()) == {"CC BY 4.0"} and {lic for _, lic in replies} == {"CC BY 4.0"}


def test_v1_notes_carry_no_license_and_the_choice_is_deterministic_per_forum():
    fx = build_fixtures(KEYS, seed=3, n_forums=40, eager_pdfs=False)
    subs, replies = _licenses(fx, "iclr-2020")
    assert set(subs.values()) == {None} and {lic for _, lic in replies} == {None}
    again = build_fixtures(KEYS, seed=3, n_forums=40, eager_pdfs=False)
    for key in KEYS:
        assert _licenses(fx, key) == _licenses(again, key)
