"""The shape of a venue: what a venue's forms, invitations, naming and timeline look like.

A new venue shape (NeurIPS 2021 v1, TMLR v2, EMNLP 2023 v2, ...) is a new
:class:`VenueSpec` entry in ``venues.VENUE_SPECS``; the generator in
``fixtures.py`` only reads these fields.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime

SHORT_BUFFER_MIN = 30  # openreview-py's grace after a submission deadline


def iso_to_ms(s: str) -> int:
    return int(datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(UTC).timestamp() * 1000)


# The values OpenReview's `license` takes, read from openreview-py e25fd7da055e7ae3435df51dbdadf2760c59d281:
# openreview/venue_request/venue_request.py:1469 offers exactly these to a venue ("If you select multiple
# licenses, you allow authors to choose their license upon submission"); openreview/venue/venue.py:82
# defaults a venue to ['CC BY 4.0'], openreview/journal/journal.py:661 a journal to 'CC BY-SA 4.0';
# openreview/venue/invitation.py:231-248 makes several an enum the author picks from on the submission.
OPENREVIEW_LICENSES = ("CC BY 4.0", "CC BY-SA 4.0", "CC BY-NC 4.0", "CC BY-ND 4.0", "CC BY-NC-SA 4.0",
                       "CC BY-NC-ND 4.0", "CC0 1.0")


@dataclass(frozen=True)
class FieldSpec:
    """One content field of a reply form.

    kind: "choice" (pick from choices; the first char(s) parse as the score),
          "text" (generated prose), "const" (fixed value), "list" (value is [const]).
    """

    name: str
    kind: str = "text"
    choices: tuple = ()
    value: object = None


# Forums whose last uploads sit at the deadline's edges (their revision history is readable):
#   grace_upload  the last PDF uploaded 10 minutes after duedate, inside OpenReview's grace (expdate)
#   after_grace   a PDF revision one minute after expdate (not part of the submission)
#   aoe_boundary  the last PDF 20 minutes before an AoE deadline's instant, i.e. long after
#                 23:59 UTC of the announced day (a deadline misread as UTC would reject it)
DEADLINE_BOUNDARY_FORUMS = ("grace_upload", "after_grace", "aoe_boundary")


@dataclass(frozen=True)
class VenueSpec:
    key: str
    venue_id: str
    api_version: int  # 1 or 2
    short_name: str  # "ICLR 2024"
    # The submission deadline as the program chairs entered it in OpenReview's venue request form
    # (UTC, like the form's "Submission Deadline" field); None = rolling venue (TMLR): each paper's
    # first revision is initial. This is the replica's own venue data: the invitations' duedate and
    # expdate are derived from it the way openreview-py's venue code does (fixtures.venue_objects),
    # never copied from the project's catalogue.
    deadline: str | None
    year: int | None
    # invitations / naming
    submission_name: str = "Submission"  # v2 super invitation tail: <venue>/-/Submission
    v1_submission_invitation_tail: str = "Blind_Submission"  # v1 forum notes
    v1_original_invitation_tail: str = "Submission"
    paper_prefix: str = "Submission"  # "Submission" (v2) or "Paper" (v1)
    reviewer_style: str = "anon_hash"  # "anon_hash" → Reviewer_abCd, "anon_index" → AnonReviewer1
    review_name: str = "Official_Review"
    comment_name: str = "Official_Comment"
    public_comment_name: str | None = "Public_Comment"
    meta_review_name: str | None = "Meta_Review"
    decision_name: str = "Decision"
    decision_field: str = "decision"
    withdrawal_name: str = "Withdrawal"
    desk_rejection_name: str = "Desk_Rejection"
    review_fields: tuple = ()
    meta_review_fields: tuple = ()
    decision_options: tuple = ("Accept (poster)", "Reject")
    decision_extra_fields: tuple = ("comment",)
    accept_venue_strings: dict = field(default_factory=dict)  # decision -> venue string
    rejected_venue_string: str = ""
    withdrawn_venue_string: str = ""
    desk_rejected_venue_string: str = ""
    # post-deadline revision invitations (v2: per-paper invitation tails)
    rebuttal_revision_name: str = "Rebuttal_Revision"
    camera_ready_revision_name: str = "Camera_Ready_Revision"
    submission_content_fields: tuple = ("title", "authors", "authorids", "keywords", "TLDR", "abstract",
                                        "primary_area", "venue", "venueid", "pdf", "_bibtex")
    tldr_field: str = "TLDR"
    license: str | None = "CC BY 4.0"  # the venue's default (None: API v1 notes carry no license)
    # the others its authors may choose (venue_request's multi-select; see note_license); () = none
    license_choices: tuple = ()
    allow_anonymous: bool = False
    # timeline offsets from the deadline, in days
    t_public: float = 6
    t_reviews: tuple = (24, 34)
    t_rebuttal: tuple = (44, 54)
    t_meta: tuple = (70, 80)
    t_decision: float = 110
    t_camera_ready: tuple = (135, 150)
    # per-forum special cases, assigned to forums 0..len-1 in order
    special_forums: tuple = ()
    p_post_deadline_revision: float = 0.7
    p_public_comment: float = 0.25
    primary_areas: tuple = ("general machine learning",)
    # ---- family conventions (defaults = the ICLR 2024 shape; every default keeps the random
    # stream of the original iclr-2024/iclr-2020 fixtures unchanged) ----
    anchor: str | None = None  # rolling venues: timeline start (ISO UTC); papers are staggered
    rolling_gap_days: float = 9.0  # rolling venues: days between consecutive papers' review start
    history_public: bool = False  # v2: every edit readable by everyone (TMLR after Under_Review)
    post_submission_name: str = "Post_Submission"  # v2 edit right after the deadline
    author_rebuttal_name: str | None = None  # general rebuttal note (replyto forum, field `rebuttal`)
    rebuttal_style: str = "comment"  # "comment": Official_Comment under the review;
    #                                  "per_review": <P>/Official_Review<M>/-/Rebuttal (field `rebuttal`)
    p_general_response: float = 0.2  # author Official_Comment to the forum ("General Response")
    p_review_edit: float = 0.0  # v2: share of reviews edited after the rebuttal (note edits kept)
    review_edit_fields: tuple = ()  # fields added by that edit (NeurIPS 2025 final_justification)
    # v2: the program chairs release reviews with the venue's meta invitation (`<venue>/-/Edit`), one
    # edit per review, a forum's reviews within seconds, the venue's within hours (real ICLR 2026:
    # docs/openreview-api.md §1.8); that edit moves each review's tmdate and joins its `invitations`
    review_release_edit: bool = True
    meta_review_by: str = "area_chair"  # or "reviewers" (TMLR Official_Recommendation, one each)
    decision_signer: str = "program_chairs"  # or "action_editors" (TMLR)
    decision_on_meta: bool = False  # no Decision note: the meta-review carries `decision` (CoRL 2022)
    track_of_decision: dict = field(default_factory=dict)  # decision -> track (EMNLP Findings)
    rejected_venueid: str | None = None  # default <venue>/Rejected_Submission
    withdrawn_venueid: str | None = None
    desk_rejected_venueid: str | None = None
    subtitle: str = "International Conference on Learning Representations"
    track: str = "main"  # catalogue track of the venue's papers (track_of_decision overrides)
    # The venue request form's "Submission Expiration Date" (UTC), when the PCs set one; otherwise
    # openreview-py sets expdate = duedate + SHORT_BUFFER_MIN (30) minutes.
    submission_expiration: str | None = None

    @property
    def rolling(self) -> bool:
        return self.deadline is None

    @property
    def duedate_ms(self) -> int | None:
        return None if self.deadline is None else iso_to_ms(self.deadline)

    @property
    def expdate_ms(self) -> int | None:
        """openreview-py: `expdate = due_date + timedelta(minutes=SHORT_BUFFER_MIN)` unless the venue
        set an expiration date (openreview/venue/invitation.py, openreview/conference/invitation.py)."""
        if self.deadline is None:
            return None
        if self.submission_expiration:
            return iso_to_ms(self.submission_expiration)
        return self.duedate_ms + SHORT_BUFFER_MIN * 60_000


OTHER_LICENSE_SHARE = 0.1  # authors who pick another of the venue's licenses than its default


def note_license(spec: VenueSpec, forum_id: str) -> str | None:
    """The license of a forum's notes, deterministic per forum: mostly the venue's default, another of its
    `license_choices` for about OTHER_LICENSE_SHARE of the forums. The forum's replies carry the
    submission's value (every reply of the recorded ICLR 2026 forum,
    tests/fixtures/openreview-samples/iclr2026_zzo3Sy3NSX_v2_submission_vars_with_replies.json, has its
    submission's "CC BY 4.0"; reply invitations in openreview-py set none of their own)."""
    if not spec.license:
        return None
    others = [x for x in spec.license_choices if x != spec.license]
    h = int(hashlib.sha256(f"license:{forum_id}".encode()).hexdigest()[:8], 16)
    if not others or h / 2**32 >= OTHER_LICENSE_SHARE:
        return spec.license
    return others[h % len(others)]
