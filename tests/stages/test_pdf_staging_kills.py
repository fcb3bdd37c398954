"""stages/pdf_fetch.py (its staging: io/pdf_files.py): an answer received whole is kept whatever instant a kill takes after it
(issue 38.7, `kill_resume_repeated_requests` 0 in every trial, API v1 and v2). A kill is a
`Killed` (a BaseException, like SystemExit: no `except Exception` handles it) raised right after a
chosen write, the process's last; the re-run is a fresh call on the same store that counts its
requests."""
from __future__ import annotations

import hashlib
import io
import zipfile

import pytest

from openreview_replica.pdfgen import PdfSpec, render_pdf
from resources.store import Store, store_from_uri
from reviewbench_assets.io import pdf_files
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages import pdf_fetch
from tests.stages.streamed import Streamed


class Killed(BaseException):
    """The process died here."""


class _Api:
    """An API client answering every request with `answer`, counting requests like the real one."""

    api = "v2"

    def __init__(self, answer: bytes):
        self.answer, self.asked = answer, []

    def thread_requests(self) -> int:
        return len(self.asked)

    def get_stream(self, path, params):
        self.asked.append((path, dict(params)))
        return Streamed(self.answer)


def _pdf(forum_id: str) -> bytes:
    return render_pdf(PdfSpec(forum_id, 1, f"Paper {forum_id}", "An abstract.", 1, seed=3))


def test_a_body_whose_last_byte_reached_its_staging_file_is_an_answer_whoever_is_killed_after(tmp_path, monkeypatch):
    """API v1 (one PDF per request): the run is killed right after the body's last byte is written to
    `pdf_staging/<key>.bin`, before anything else (its record, the source record, the PDF). The answer
    was received whole and is in the file: the re-run takes it without a request. Before, the record
    followed the body, so a kill in between (the body file's close, its hash, the record's open and
    write) left a body without a record, asked again."""
    pdf = _pdf("paperAAAA")
    real = pdf_files.direct_stream

    class _KilledAfterLastByte:
        def __init__(self, out):
            self.out, self.n = out, 0

        def write(self, chunk):
            self.out.write(chunk)
            self.n += len(chunk)
            if self.n == len(pdf):
                raise Killed

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.out.close()  # the kernel closes a killed process's files; the bytes written stay
            return False

    def stream(store, path):
        out = real(store, path)
        return _KilledAfterLastByte(out) if path.endswith(".bin") else out

    store = store_from_uri(str(tmp_path))
    record = {"forum_id": "paperAAAA", "fingerprint": "f1"}
    monkeypatch.setattr(pdf_files, "direct_stream", stream)
    with pytest.raises(Killed):
        pdf_fetch.download_one(_Api(pdf), PdfFiles(store), record, "/pdf?id=paperAAAA")
    monkeypatch.setattr(pdf_files, "direct_stream", real)

    rerun = _Api(pdf)
    out = pdf_fetch.download_one(rerun, PdfFiles(store), record, "/pdf?id=paperAAAA")
    assert rerun.asked == []  # nothing asked twice
    assert out["pdf_sha256"] == hashlib.sha256(pdf).hexdigest() and store.pdf_ok(out["pdf_sha256"])
    assert out["pdf_requests"] == 1  # what the answer cost, as an uninterrupted run records it


IDS = ["paperAAAA", "paperBBBB", "paperCCCC"]


def _batch() -> tuple[list[str], dict[str, bytes], bytes, list[dict]]:
    pdfs = {i: _pdf(i) for i in IDS}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in IDS:
            z.writestr(f"{i}.pdf", pdfs[i])
    return IDS, pdfs, buf.getvalue(), [{"forum_id": i, "fingerprint": "f1"} for i in IDS]


def test_a_batch_whose_pdfs_were_partly_stored_is_not_asked_again(tmp_path, monkeypatch):
    """API v2 (current PDFs in one `/attachment?ids=` zip): killed right after the 2nd PDF's source
    record (the kill point `pdf_source_written`, as tests/faults/kill_points.py places it), the first
    PDF stored, the others received in the zip. The re-run's batch holds only the forums not stored;
    before, its key (the forums it holds) was another, the staged zip was not found, and
    `/attachment?ids=b,c` asked again for PDFs the killed run had received."""
    ids, pdfs, zipped, records = _batch()
    store = store_from_uri(str(tmp_path))

    real, seen = Store.write_json, []

    def write_json(self, path, obj, *args, **kwargs):
        out = real(self, path, obj, *args, **kwargs)
        if self.rel(path).startswith("pdf_sources/"):
            seen.append(path)
            if len(seen) == 2:
                raise Killed
        return out

    monkeypatch.setattr(Store, "write_json", write_json)
    first = _Api(zipped)
    with pytest.raises(Killed):
        pdf_fetch.download_batch(first, PdfFiles(store), records)
    monkeypatch.setattr(Store, "write_json", real)
    assert first.asked == [("/attachment", {"ids": ",".join(ids), "name": "pdf"})]

    rerun = _Api(b"not asked")
    out = {r["forum_id"]: r for r in pdf_fetch.download_batch(rerun, PdfFiles(store), records)}
    assert rerun.asked == []  # nothing asked twice
    for i in ids:
        assert out[i]["pdf_sha256"] == hashlib.sha256(pdfs[i]).hexdigest() and store.pdf_ok(out[i]["pdf_sha256"])
    # the PDFs received in the zip keep their share of its one request (the first was recorded
    # stored before: 0 now, as a stored PDF's record always says)
    assert [out[i]["pdf_requests"] for i in ids] == [0.0, pytest.approx(1 / 3), pytest.approx(1 / 3)]
    assert not [p for p in (tmp_path / "pdf_staging").rglob("*") if p.is_file()]  # nothing left staged


def test_a_batch_killed_while_its_pdfs_are_staged_one_by_one_is_not_asked_again(tmp_path, monkeypatch):
    """API v2: killed after the zip is staged, while its PDFs are staged under their own keys (the 1st
    staged with its record, the 2nd's body written, its record not). The zip, staged for the same
    forums, answers them all: nothing is asked again and nothing is left staged."""
    ids, pdfs, zipped, records = _batch()
    store = store_from_uri(str(tmp_path))
    real, calls = pdf_files._record, []

    def record(store_, meta_path, rec):
        calls.append(rec)
        if len(calls) == 4:  # the zip's two writes, the 1st PDF's record: the 2nd PDF's is the kill
            raise Killed
        return real(store_, meta_path, rec)

    monkeypatch.setattr(pdf_files, "_record", record)
    with pytest.raises(Killed):
        pdf_fetch.download_batch(_Api(zipped), PdfFiles(store), records)
    monkeypatch.setattr(pdf_files, "_record", real)
    assert [c["key"].startswith("batch|") for c in calls] == [True, True, False, False]

    rerun = _Api(b"not asked")
    out = {r["forum_id"]: r for r in pdf_fetch.download_batch(rerun, PdfFiles(store), records)}
    assert rerun.asked == []
    assert {i: out[i]["pdf_sha256"] for i in ids} == {i: hashlib.sha256(pdfs[i]).hexdigest() for i in ids}
    assert [out[i]["pdf_requests"] for i in ids] == [pytest.approx(1 / 3)] * 3  # as an uninterrupted run's
    assert not [p for p in (tmp_path / "pdf_staging").rglob("*") if p.is_file()]
