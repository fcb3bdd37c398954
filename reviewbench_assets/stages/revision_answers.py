"""What the PDF stage asks OpenReview of each forum's revision history (stages/pdf_stage.py decides
whom to ask; the PDFs are stages/pdf_fetch.py's), and what it keeps of the answers so that nothing is
asked twice, even by the re-run of a killed run (issue 29.3): the API recipe's answer
(`api_revision_page`) and the browser's revisions pages (`read_pages`), each checkpointed per forum as
it arrives (`RevisionAnswers`, in the stage's own `revision_checkpoints` folder)."""
from __future__ import annotations

from resources.openreview_api import OpenReviewApi, OpenReviewError
from reviewbench_assets.io.stage_io import Folder

# ---------------------------------------------------------------------------------------------
# What OpenReview answered about each forum's revision history, checkpointed per forum as each
# answer arrives (issue 29.3): a run killed while the revision pages are read, or between a forum's
# history and its download, leaves every answer it received, and its re-run asks OpenReview only for
# the forums it had not heard about (before, a kill repeated the whole round of pages: 383 instead of
# 160 history requests in a 200-forum run).
#
# One file per forum and source (`browser`: the revisions page's API answer as the page received it;
# `api`: the API recipe's answer), with the requests it cost (so the forum's record counts them as an
# uninterrupted run would) and the note version it belongs to: an edited note is asked again. Only
# answers are kept: a page that failed, a 429 or an outage leaves nothing, so it is asked again.


def api_revision_page(api: OpenReviewApi, forum_id: str) -> dict:
    """The API recipe's answer (openreview-api.md §3.2): v2 note edits, v1 references with
    original=true, as `{"kind", "items"}` like a revisions page's (`revisions_from_page`)."""
    kind, path, params = (("edits", "/notes/edits", {"note.id": forum_id, "sort": "tcdate:asc"}) if api.api == "v2"
                          else ("references", "/references", {"referent": forum_id, "original": "true"}))
    items = api.get_json(path, params).get(kind)
    if not isinstance(items, list):  # an answer without its list is no history: never "no revisions"
        raise OpenReviewError("BadBody", f"no {kind} list in the answer for {forum_id}", None, path)
    return {"kind": kind, "items": items}


class RevisionAnswers:
    """`folder`: the stage's `revision_checkpoints` of the partition (`Outputs.folder`)."""

    def __init__(self, folder: Folder):
        self.folder = folder
        self.resumed = 0

    @staticmethod
    def _name(forum_id: str, source: str) -> str:
        return f"{forum_id}.{source}.json"  # the folder refuses a name that would leave it

    def get(self, meta: dict, source: str) -> tuple[dict, dict] | None:
        """(answer, requests it cost) received earlier for this version of the forum's note, or None."""
        rec = self.folder.read_json(self._name(meta["forum_id"], source))
        if (isinstance(rec, dict) and rec.get("note_tmdate") == meta["tmdate"] and isinstance(rec.get("page"), dict)
                and isinstance(rec.get("requests"), dict)):
            self.resumed += 1
            return rec["page"], rec["requests"]
        return None

    def put(self, meta: dict, source: str, page: dict, requests: dict) -> None:
        self.folder.write_json(self._name(meta["forum_id"], source),
                               {"note_tmdate": meta["tmdate"], "page": dict(page), "requests": dict(requests)})

    def clear(self) -> None:
        """Every forum recorded for good: the answers are in the records, the checkpoints can go."""
        self.folder.delete()


class RoundPages(dict):
    """forum id -> revisions page (or the error its page ended with), `.requests` per forum: what
    `initial_submission_records` takes, from the checkpoints and the pages read now together."""

    def __init__(self):
        super().__init__()
        self.requests: dict[str, dict] = {}


def read_pages(answers: RevisionAnswers, metas: dict[str, dict], forum_ids: list[str], scrape, notes,
               on_done) -> RoundPages:
    """The revisions pages of `forum_ids`: those answered before (a killed run's) from their
    checkpoints, the others read by `scrape(ids, on_page, notes(ids))`, each checkpointed as it
    arrives (`on_page(forum id, page or error, requests)` is called by the browser per forum)."""
    out = RoundPages()
    for fid in forum_ids:
        got = answers.get(metas[fid], "browser")
        if got is not None:
            out[fid], out.requests[fid] = got
            on_done(fid)
    to_read = [fid for fid in forum_ids if fid not in out]

    def on_page(fid: str, page=None, requests: dict | None = None) -> None:
        if isinstance(page, dict):  # an answer (an exception is asked again next time)
            answers.put(metas[fid], "browser", page, requests or {})
        on_done(fid)

    if to_read:
        fresh = scrape(to_read, on_page, notes(to_read))
        out.update(fresh)
        out.requests.update(getattr(fresh, "requests", {}) or {})
    return out
