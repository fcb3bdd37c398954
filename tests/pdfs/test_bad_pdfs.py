"""A PDF that is not a PDF, truncated, encrypted or has zero pages is recorded with its reason."""
from __future__ import annotations

import pyarrow.fs as pafs
import pytest

from partitions.catalogue import catalogue
from resources.store import Store
from reviewbench_assets.io.pdf_files import PdfFiles
from reviewbench_assets.stages.pdf_fetch import BadPdf, inspect_pdf, store_pdf
from reviewbench_assets.stages.pdf_stage import initial_submission_records, records_table
from tests.ocr.conftest import ZERO_PAGE_PDF, write_two_column_pdf
from tests.pdfs.conftest import api_for


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> dict[str, bytes]:
    root = tmp_path_factory.mktemp("bad")
    good = write_two_column_pdf(root / "good.pdf", "good", 2).read_bytes()
    return {
        "good": good,
        "html": b"<html><body>403 Forbidden</body></html>\n",
        "empty": b"",
        "truncated": good[: len(good) // 2],
        "encrypted": write_two_column_pdf(root / "locked.pdf", "locked", 2, encrypt="secret").read_bytes(),
        "zero_pages": ZERO_PAGE_PDF,
        "corrupt": b"%PDF-1.4\n" + bytes(range(256)) * 8 + b"\n%%EOF\n",
    }


@pytest.mark.parametrize("name,reason", [
    ("html", "not a PDF"), ("empty", "empty file"), ("truncated", "truncated PDF"),
    ("encrypted", "encrypted PDF"), ("zero_pages", "PDF has zero pages"), ("corrupt", "corrupt PDF"),
])
def test_bad_bytes_are_rejected_with_a_reason_and_never_stored(samples, tmp_path, name, reason):
    with pytest.raises(BadPdf, match=reason):
        inspect_pdf(samples[name])
    store = Store(pafs.LocalFileSystem(), str(tmp_path))
    rec = store_pdf(PdfFiles(store), {"forum_id": "F"}, samples[name], "single", "/pdf?id=F")
    assert rec["error"].startswith(f"pdf: {reason}")
    assert rec.get("pdf_sha256") is None
    assert not store.list_files(store.path("pdfs"))
    records_table([rec])  # the record fits the schema


def test_good_bytes_are_stored_once(samples, tmp_path):
    store = Store(pafs.LocalFileSystem(), str(tmp_path))
    a = store_pdf(PdfFiles(store), {"forum_id": "A"}, samples["good"], "single", "/pdf?id=A")
    b = store_pdf(PdfFiles(store), {"forum_id": "B"}, samples["good"], "batch", "/pdf?id=B")
    assert a["pdf_pages"] == 2 and a["pdf_sha256"] == b["pdf_sha256"] and a.get("error") is None
    assert len(store.list_files(store.path("pdfs"))) == 1


@pytest.mark.slow
@pytest.mark.parametrize("pk", ["iclr-2024", "iclr-2020"])
def test_missing_and_truncated_downloads_are_recorded_per_forum(pk, pdf_replica, pdf_fixtures, forum_metas,
                                                                tmp_path):
    """Faults on the replica: 404 and truncated PDFs, in zips (v2 batches) and single requests."""
    venue, truth = catalogue().get(pk), pdf_fixtures.venues[pk].forums
    with_pdf = [fid for fid, t in truth.items() if t.expected_marker]
    by_rule = {}
    for fid in with_pdf:
        by_rule.setdefault(truth[fid].stage_rule, []).append(fid)
    corrupt = [ids[0] for ids in by_rule.values()]
    missing = [ids[-1] for ids in by_rule.values() if len(ids) > 1]
    api = api_for(pdf_replica, pk)
    store = Store(pafs.LocalFileSystem(), str(tmp_path))
    pdf_replica.set_faults(corrupt_pdfs=corrupt, missing_pdfs=missing)
    try:
        records = initial_submission_records(api, PdfFiles(store), forum_metas[pk], venue.cutoff_ms, {}, max_workers=4)
    finally:
        pdf_replica.clear_faults()
    by_id = {r["forum_id"]: r for r in records}
    for fid in corrupt:
        assert by_id[fid]["error"].startswith("pdf: truncated PDF"), by_id[fid]
        assert by_id[fid].get("pdf_sha256") is None
    for fid in missing:
        assert by_id[fid]["error"].startswith("pdf: NotFoundError"), by_id[fid]
    for fid in set(with_pdf) - set(corrupt) - set(missing):
        assert by_id[fid]["error"] is None and by_id[fid]["pdf_sha256"], by_id[fid]
    # the rule is still the right one: a bad download never changes which revision was chosen
    for fid, rec in by_id.items():
        assert rec["rule"] == truth[fid].stage_rule
