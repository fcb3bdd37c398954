"""Replica fixtures: discussion shapes of real forums beyond one thread per review, and the API v1
revision history of reviews (issue 10). Functions of the fixtures generator (`fixtures.VenueGenerator`),
called on their own random stream so the rest of the fixtures stay as they were."""
from __future__ import annotations

from .fixture_model import DAY
from .vocabulary import FIRST, LAST


def discussion(gen, add, fid, P, A, reviews, cwriters, n_rev) -> None:  # gen: fixtures.VenueGenerator
    """Discussion shapes of real forums beyond "authors answer under each review" (issue 10):
    a reviewer who posted no official review (an emergency or late reviewer) talking with the
    authors in a thread of its own at the forum level; a reviewer's top-level comment that the
    authors answer; an area chair's note to all reviewers that the authors answer; an author
    answer to a public comment. Runs on its own random stream (the rest of the fixtures stay
    as they were)."""
    spec, V = gen.spec, gen.V
    t = gen.t(spec.t_rebuttal[0] + 1, spec.t_rebuttal[1])
    if spec.reviewer_style == "anon_hash":
        late = f"{P}/Reviewer_" + "".join(gen.rng.choice(gen.ALNUM) for _ in range(4))
    else:
        late = f"{P}/AnonReviewer{n_rev + 1}"
    rwriters = (lambda sig: [V, sig]) if gen.v2 else (lambda sig: [sig])
    prev = add(spec.comment_name, fid, late, {"comment": gen.val("Late review comment. " + gen.text(3))},
               t, writers=rwriters(late))
    for k in range(5):
        t += int(gen.rng.uniform(0.2, 1.5) * DAY)
        if k % 2 == 0:
            prev = add(spec.comment_name, prev["id"], A, {"title": gen.val("Response to the late reviewer"),
                                                          "comment": gen.val(gen.text(3))},
                       t, writers=cwriters)
        else:
            prev = add(spec.comment_name, prev["id"], late, {"comment": gen.val(gen.text(2))}, t,
                       writers=rwriters(late))
    if reviews:
        r_sig = reviews[0][1]
        t += DAY // 3
        top = add(spec.comment_name, fid, r_sig, {"comment": gen.val("A further question. " + gen.text(2))},
                  t, writers=rwriters(r_sig))
        add(spec.comment_name, top["id"], A, {"comment": gen.val("Our answer. " + gen.text(2))},
            t + DAY // 4, writers=cwriters)
    ac = f"{P}/Action_Editors" if spec.decision_signer == "action_editors" else (
        f"{P}/Area_Chair_" + "".join(gen.rng.choice(gen.ALNUM) for _ in range(4)) if gen.v2
        else f"{P}/Area_Chair1")
    t += DAY // 2
    note = add(spec.comment_name, fid, ac, {"title": gen.val("To all reviewers"), "comment": gen.val(
        "Dear reviewers, please acknowledge the authors' responses.")}, t, writers=rwriters(ac))
    add(spec.comment_name, note["id"], A, {"comment": gen.val("We thank the area chair. " + gen.text(2))},
        t + DAY // 4, writers=cwriters)
    if spec.public_comment_name:
        who = f"~{gen.rng.choice(FIRST)}_{gen.rng.choice(LAST)}1"
        pub = add(spec.public_comment_name, fid, who, {"title": gen.val("Question about the code"),
                                                       "comment": gen.val(gen.text(1))},
                  t + DAY // 3, writers=rwriters(who))
        add(spec.comment_name, pub["id"], A, {"comment": gen.val("The code will be released.")},
            t + DAY // 2, writers=cwriters)


def review_references(gen, r: dict, sig: str, fid: str) -> None:  # gen: fixtures.VenueGenerator
    """API v1 revision history of one review (`/references?referent=<review>` or
    `?invitation=<paper>/-/Official_Review`): a reference per edit, the first holding the review as
    posted, a later one (after the rebuttal, for ~30% of reviews) only the changed rating, as v1
    references hold the fields an edit set. Real ICLR 2020 reviews were edited this way (the
    recorded ryxz8CVYDH replies have tmdate > tcdate)."""
    spec = gen.spec
    field = next((f for f in spec.review_fields if f.name in ("rating", "recommendation") and f.choices), None)
    first = gen.ref(gen.nid(10), fid, None, r["number"], r["invitation"], r["tcdate"], r["tcdate"],
                     dict(r["content"]), None)
    refs = [first]
    if field is not None and gen.rng.random() < 0.3:
        final = r["content"][field.name]
        initial = gen.rng.choice([c for c in field.choices if c != final])
        first["content"][field.name] = initial
        t = gen.t(spec.t_rebuttal[1], spec.t_rebuttal[1] + 6)
        refs.append(gen.ref(gen.nid(10), fid, None, r["number"], r["invitation"], r["tcdate"], t,
                             {field.name: final}, None))
        r["tmdate"] = max(r["tmdate"], t)
        gen.review_edits[r["id"]] = (initial, final)
    for ref in refs:
        ref.update(referent=r["id"], replyto=fid, signatures=[sig], writers=[sig], readers=list(r["readers"]))
        ref.pop("details", None)
        gen.vf.references[ref["id"]] = ref
    gen.vf.refs_by_referent[r["id"]] = refs
