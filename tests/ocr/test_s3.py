"""The pipeline reads through a pyarrow S3FileSystem (moto's S3 server on localhost)."""

from __future__ import annotations

import pytest

from ocr_ray.conversion import PAGE_SEPARATOR, PdfTask
from ocr_ray.pipeline import run_pipeline

from .conftest import page_sentences


@pytest.fixture()
def s3_filesystem(monkeypatch):
    boto3 = pytest.importorskip("boto3")
    server_module = pytest.importorskip("moto.server")
    import pyarrow.fs as pafs

    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    credentials = {"aws_access_key_id": "test", "aws_secret_access_key": "test"}
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", **credentials)
    client.create_bucket(Bucket="corpus")
    filesystem = pafs.S3FileSystem(
        access_key="test", secret_key="test", region="us-east-1",
        endpoint_override=f"{host}:{port}", scheme="http",
    )
    yield client, filesystem
    server.stop()


@pytest.mark.slow
def test_pdfs_from_s3(ray_session, pdf_corpus, s3_filesystem):
    client, filesystem = s3_filesystem
    client.put_object(Bucket="corpus", Key="pdfs/pa/paperA.pdf", Body=pdf_corpus["paperA"].read_bytes())

    tasks = [PdfTask("paperA", "corpus/pdfs/pa/paperA.pdf"), PdfTask("ghost", "corpus/pdfs/gh/ghost.pdf")]
    found, missing = run_pipeline(tasks, filesystem=filesystem)

    assert found.error is None and found.num_pages == 3
    assert page_sentences("paperA", 3)[1] in found.markdown.split(PAGE_SEPARATOR)[2]
    assert missing.markdown == "" and "missing file" in missing.error
