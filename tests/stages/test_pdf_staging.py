"""stages/pdf_fetch.py and io/pdf_files.py (its staging): a download is an answer to keep only once its whole body is in."""
from __future__ import annotations

import hashlib

import pytest

from resources.openreview_api import OpenReviewError
from resources.store import store_from_uri
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages import pdf_fetch as pdf_staging
from tests.stages.streamed import Streamed

PDF = b"%PDF-1.4\n" + b"0" * 200_000 + b"\n%%EOF\n"


class _Api:
    def __init__(self, answer):
        self.answer, self.asked = answer, 0

    def thread_requests(self) -> int:
        return self.asked

    def get_stream(self, path, params):
        self.asked += 1
        return self.answer


def test_a_whole_body_is_kept_and_taken_again_without_a_request(tmp_path):
    store = store_from_uri(str(tmp_path))
    api = _Api(Streamed(PDF, len(PDF)))
    assert pdf_staging.fetch_staged(api, PdfFiles(store), "k", "/pdf", {"id": "a"}) == PDF
    assert PdfFiles(store).staged("k") == (PDF, 1)  # what a re-run takes: the body and its cost
    sha, path, new = store.put_pdf(PDF, PdfFiles(store).data_path("k"))  # moved, not written again
    assert new and sha == hashlib.sha256(PDF).hexdigest() and store.read_bytes(path) == PDF
    PdfFiles(store).drop("k")
    assert PdfFiles(store).staged("k") is None
    assert not [p for p in (tmp_path / "pdf_staging").rglob("*") if p.is_file()]


def test_a_body_cut_short_is_not_an_answer(tmp_path):
    store = store_from_uri(str(tmp_path))
    api = _Api(Streamed(PDF[:50_000], len(PDF)))  # the connection ended before Content-Length bytes
    with pytest.raises(OpenReviewError, match="IncompleteBody"):
        pdf_staging.fetch_staged(api, PdfFiles(store), "k", "/pdf", {"id": "a"})
    assert PdfFiles(store).staged("k") is None  # asked again next time


def test_a_staged_file_that_does_not_match_its_record_is_a_miss(tmp_path):
    store = store_from_uri(str(tmp_path))
    pdf_staging.fetch_staged(_Api(Streamed(PDF, len(PDF))), PdfFiles(store), "k", "/pdf", {"id": "a"})
    data = PdfFiles(store).data_path("k")
    store.fs.delete_file(data)
    with store.fs.open_output_stream(data) as f:
        f.write(PDF[:-1] + b"X")  # same length, other bytes
    assert PdfFiles(store).staged("k") is None


def test_a_record_left_behind_its_stored_pdf_is_swept_and_nothing_else(tmp_path):
    """A run killed after its PDF moved into the store and before its staging record was deleted
    (crash point `delete_file pdf_staging/<key>.json`): the record has no body left; `sweep` (run
    when the PDF stage starts) deletes it, and keeps a complete staged answer and a body in flight."""
    store = store_from_uri(str(tmp_path))
    for key in ("stored", "complete"):
        pdf_staging.fetch_staged(_Api(Streamed(PDF, len(PDF))), PdfFiles(store), key, "/pdf", {"id": key})
    store.put_pdf(PDF, PdfFiles(store).data_path("stored"))  # moved into the store; then killed before drop
    in_flight = PdfFiles(store).data_path("in-flight")
    with store.fs.open_output_stream(in_flight) as f:  # a live run's body, its record not written yet
        f.write(PDF[:100])
    assert PdfFiles(store).sweep_staging_records() == 1
    left = sorted(p.name for p in (tmp_path / "pdf_staging").iterdir())
    assert len(left) == 3 and PdfFiles(store).staged("complete") == (PDF, 1) and store.exists(in_flight)
