"""Check a storage root end to end, like `git fsck` (issue 38.2; reviewbench_assets/verify.py says what):

    python -m scripts.verify                 # REVIEWBENCH_STORAGE_ROOT (local or s3://...), else var/storage
    python -m scripts.verify --root s3://bucket/prefix
    python -m scripts.verify --repair        # mend what is damaged, then check again

Prints every damaged file with what to re-run and exits 1 when anything is damaged (0 otherwise).
Without --repair nothing is changed: the root is opened without replaying dead runs' journals.
"""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="storage root (default: REVIEWBENCH_STORAGE_ROOT, else var/storage)")
    ap.add_argument("--repair", action="store_true", help="mend what is damaged (replay journals, rewrite "
                    "damaged split parts, the card), then check again")
    args = ap.parse_args(argv)
    from resources import StorageResource
    from resources.store import store_from_uri
    from reviewbench_assets.definitions import build_resources
    from reviewbench_assets.verify import main_text, verify

    storage = build_resources()["storage"]  # the root and S3 settings the assets use
    if args.root:
        storage = StorageResource(root=args.root, s3=storage.s3)
    if storage.root.startswith("s3://"):
        store = store_from_uri(storage.root, storage.s3_options(), s3_client_factory=storage.s3.get_client,
                               recover=False)
    else:
        store = store_from_uri(storage.root, recover=False)
    text, code = main_text(verify(store, repair=args.repair, log=lambda m: print(m, file=sys.stderr)))
    print(text)
    return code


if __name__ == "__main__":
    sys.exit(main())
