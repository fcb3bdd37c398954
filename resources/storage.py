"""Storage root: a local folder by default, `s3://bucket/prefix` in production.

Credentials and endpoint come from dagster-aws's `S3Resource` (configured with `EnvVar`s), the
bytes move through `pyarrow.fs`, so the local and the S3 path run the same code.
"""
from __future__ import annotations

import dagster as dg
from dagster_aws.s3 import S3Resource
from pydantic import Field

from resources.store import Store, store_from_uri


class StorageResource(dg.ConfigurableResource):
    root: str = Field(description="Local directory or s3://bucket/prefix holding every artefact")
    s3: S3Resource = Field(default_factory=S3Resource, description="Used only for s3:// roots")

    def s3_options(self) -> dict:
        s3 = self.s3
        opts: dict = {}
        if s3.region_name:
            opts["region"] = s3.region_name
        if s3.endpoint_url:
            scheme, _, rest = s3.endpoint_url.partition("://")
            opts["endpoint_override"] = rest or scheme
            opts["scheme"] = scheme if rest else "https"
        if s3.aws_access_key_id:
            opts["access_key"] = s3.aws_access_key_id
            opts["secret_key"] = s3.aws_secret_access_key
            if s3.aws_session_token:
                opts["session_token"] = s3.aws_session_token
        return opts

    def store(self) -> Store:
        """The storage root, with the file sets of runs killed while publishing made whole first
        (resources/store_publish.py), so what any asset reads is one run's set."""
        if not self.root.startswith("s3://"):
            return store_from_uri(self.root)  # recovers before returning
        # boto3 (through dagster-aws) only for the S3 lock object's conditional puts
        return store_from_uri(self.root, self.s3_options(), s3_client_factory=self.s3.get_client)
