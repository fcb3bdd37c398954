"""A raw API v2 forum with a split rebuttal, a reminder, a global response, meta-review, decision
(shared by tests/dialogues and tests/llm)."""
from __future__ import annotations

VENUE = "ICLR.cc/2024/Conference"
PART1 = ("We thank the reviewer for the careful reading. Q1 (ablation): Table 3 now reports the "
         "gating module on all five datasets; removing it costs 2.1 points on average and 3.4 on "
         "the long-context split. ")
PART2 = ("Q2 (efficiency): against FlashAttention our step takes 41 ms versus 57 ms at sequence "
         "length 8192, measured on one GPU with batch size 16; memory drops from 21 GB to 14 GB. ")


def raw_forum(forum_id: str = "F0rumA", number: int = 7) -> dict:
    t = [1_700_000_000_000]
    replies: list[dict] = []

    def add(name, who, content, replyto=None):
        t[0] += 60_000
        nid = f"{forum_id}-n{len(replies):02d}"
        sig = f"{VENUE}/Program_Chairs" if who == "pc" else f"{VENUE}/Submission{number}/{who}"
        replies.append({
            "id": nid, "forum": forum_id, "replyto": replyto or forum_id,
            "invitations": [f"{VENUE}/Submission{number}/-/{name}"], "parentInvitations": f"{VENUE}/-/{name}",
            "signatures": [sig], "readers": ["everyone"], "content": {k: {"value": v} for k, v in content.items()},
            "domain": VENUE, "tcdate": t[0], "cdate": t[0], "tmdate": t[0], "mdate": t[0], "ddate": None,
            "number": len(replies) + 1, "version": 2,
        })
        return nid

    r = add("Official_Review", "Reviewer_aaaa", {"summary": "The paper proposes gated attention.",
                                                  "weaknesses": "Missing ablation; efficiency unclear.",
                                                  "rating": "5: marginally below", "confidence": 4,
                                                  "soundness": 3})
    add("Official_Comment", "Authors", {"title": "Response (1/2)", "comment": PART1 * 3}, replyto=r)
    add("Official_Comment", "Authors", {"title": "Response (2/2)", "comment": PART2 * 3}, replyto=r)
    add("Official_Comment", "Authors", {"title": "General response", "comment": "We thank all reviewers; "
                                        "the revision adds Section 5 with new baselines."})
    rv = add("Official_Comment", "Reviewer_aaaa", {"comment": "Thanks, the ablation resolves Q1. I raise my score."},
             replyto=r)
    add("Official_Comment", "Authors", {"title": "Gentle reminder", "comment": "Dear reviewer, a gentle "
        "reminder: the discussion period is ending soon. Have we addressed your concerns?"}, replyto=rv)
    r2 = add("Official_Review", "Reviewer_bbbb", {"summary": "Solid paper.", "rating": "8: accept",
                                                   "confidence": 3})
    replies[-1]["tmdate"] = replies[-1]["mdate"] = t[0] + 5_000_000  # edited after posting
    add("Official_Comment", "Authors", {"comment": "Thank you for the positive assessment."}, replyto=r2)
    add("Meta_Review", "Area_Chair_xyz1", {"metareview": "Reviewers agree after the rebuttal.",
                                            "recommendation": "Accept (poster)"})
    add("Decision", "pc", {"decision": "Accept (poster)", "comment": "Congratulations."})
    return {
        "id": forum_id, "forum": forum_id, "replyto": None, "number": number,
        "cdate": 1_690_000_000_000, "tcdate": 1_690_000_000_000, "mdate": t[0], "tmdate": t[0], "ddate": None,
        "invitations": [f"{VENUE}/-/Submission"], "domain": VENUE,
        "signatures": [f"{VENUE}/Submission{number}/Authors"],
        "content": {k: {"value": v} for k, v in {
            "title": f"Gated Attention {forum_id}", "abstract": "We study gated attention.",
            "venue": "ICLR 2024 poster", "venueid": VENUE, "pdf": "/pdf/abc.pdf"}.items()},
        "details": {"replies": replies},
    }
