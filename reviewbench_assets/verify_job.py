"""The Dagster job `verify_storage` (issue 38.2): `scripts.verify` from the UI or a schedule. Its op
checks the storage root (reviewbench_assets/verify.py), reports every finding in its metadata and
fails when anything is damaged; config `repair: true` mends what can be mended first."""

import dagster as dg

from resources import StorageResource
from resources.store import store_from_uri
from reviewbench_assets.verify import verify


class VerifyConfig(dg.Config):
    repair: bool = False


@dg.op(description="Check every published file of the storage root (like git fsck); fail when any is damaged")
def verify_storage_op(context: dg.OpExecutionContext, config: VerifyConfig, storage: StorageResource) -> None:
    if storage.root.startswith("s3://"):
        store = store_from_uri(storage.root, storage.s3_options(), s3_client_factory=storage.s3.get_client,
                               recover=False)
    else:
        store = store_from_uri(storage.root, recover=False)  # verify alone changes nothing
    report = verify(store, repair=config.repair, log=context.log.info)
    findings = [{"path": f.path, "problem": f.problem, "fix": f.fix, "damaged": f.damaged} for f in report.findings]
    context.log.info(report.text())
    if report.damaged:
        raise dg.Failure(description=f"{len(report.damaged)} damaged files under {storage.root}",
                         metadata={"files_checked": report.checked, "findings": dg.MetadataValue.json(findings),
                                   "repaired": dg.MetadataValue.json(report.repaired)}, allow_retries=False)


@dg.job(description="verify: check the storage root end to end (python -m scripts.verify)")
def verify_storage():
    verify_storage_op()
