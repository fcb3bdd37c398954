"""Storage: the same code on a local folder and on S3 (moto_server over HTTP), atomic writes, CAS PDFs."""
import pyarrow as pa
import pytest
from dagster_aws.s3 import S3Resource

from resources import StorageResource


@pytest.fixture(params=["local", "s3"])
def storage(request, tmp_path):
    if request.param == "local":
        return StorageResource(root=str(tmp_path / "root"))
    endpoint = request.getfixturevalue("moto_endpoint")
    bucket = request.getfixturevalue("s3_bucket")
    return StorageResource(root=f"s3://{bucket}/prefix",
                           s3=S3Resource(endpoint_url=endpoint, region_name="us-east-1",
                                         aws_access_key_id="testing-key", aws_secret_access_key="testing-secret"))


def test_roundtrip_and_content_addressed_pdfs(storage):
    store = storage.store()
    store.write_jsonl(store.path("raw/x.jsonl"), ({"i": i} for i in range(3)))
    assert [r["i"] for r in store.iter_jsonl(store.path("raw/x.jsonl"))] == [0, 1, 2]
    store.write_parquet(store.path("t/a.parquet"), pa.table({"a": [1, 2]}))
    assert store.read_parquet(store.path("t/a.parquet")).column("a").to_pylist() == [1, 2]
    sha, path, new = store.put_pdf(b"%PDF-1.4 fake")
    assert new and path.endswith(f"pdfs/{sha[:2]}/{sha}.pdf")
    assert store.put_pdf(b"%PDF-1.4 fake") == (sha, path, False)  # stored once
    files = store.list_files(store.path(""))
    assert not [f for f in files if ".tmp-" in f], "no temporary file left behind"
    assert store.uri.startswith("s3://" if not store.is_local else "/")


def test_a_staged_pdf_is_moved_into_the_store(storage):
    """A download's staging file (stages/pdf_fetch.py, its staging) becomes the stored PDF without its bytes
    being written a second time; a second copy of the same PDF leaves its staging file alone."""
    store = storage.store()
    staged = store.path("pdf_staging/ab/abcd.bin")
    store.fs.create_dir(store.path("pdf_staging/ab"), recursive=True)
    with store.fs.open_output_stream(staged) as f:
        f.write(b"%PDF-1.4 staged")
    sha, path, new = store.put_pdf(b"%PDF-1.4 staged", staged)
    assert new and store.read_bytes(path) == b"%PDF-1.4 staged" and not store.exists(staged)
    assert store.pdf_ok(sha)


def test_a_failed_write_leaves_nothing_under_the_final_name(storage):
    store = storage.store()

    def rows():
        yield {"ok": 1}
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        store.write_jsonl(store.path("raw/half.jsonl"), rows())
    assert not store.exists(store.path("raw/half.jsonl"))
    assert not [f for f in store.list_files(store.path("")) if ".tmp-" in f]
