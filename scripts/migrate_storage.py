"""One-off migration of a storage root written before the per-venue-year split parts (issue 20), so
that the split update carries no branch for that layout (issue 28.5).

Before the parts, a conference split was written as whole-split shards,
``corpus/<config>/<split>[_train|_test]-<i>-of-<n>.parquet``; every shard is now a venue-year's,
``<split>[_train|_test]-<pk>-<i>-of-<n>.parquet``, and the split update removes only shards of
venue-years that left the split. Run this once on a root that holds the old shards (the card's
``data/<split>-*`` globs would load them beside the new ones):

    python -m scripts.migrate_storage            # REVIEWBENCH_STORAGE_ROOT, or var/storage
    python -m scripts.migrate_storage --dry-run  # only list them

It also rewrites the parsed tables and rows written before reviews were typed (issue 28.3;
scripts/migrate_reviews.py).
"""
from __future__ import annotations

import argparse
import re
import sys

from partitions.catalogue import catalogue
from resources.store import Store
from reviewbench_assets.domain.dialogues import TRAIN_TEST_SPLITS
from reviewbench_assets.io.layout import paths
from reviewbench_assets.io.shards import CORPUS_SHARD_DIRS as CONFIG_DIRS
from reviewbench_assets.io.shards import join_path, list_files
from scripts.migrate_reviews import migrate_typed_reviews


def whole_split_shards(store: Store, splits: list[str]) -> list[str]:
    """The shards of the layout before parts: a split's name followed directly by the shard number."""
    names = "|".join(re.escape(s) for s in sorted(splits, key=len, reverse=True))
    old = re.compile(rf"^(?:{names})(?:_(?:{'|'.join(TRAIN_TEST_SPLITS)}))?-\d{{5}}-of-\d{{5}}\.parquet$")
    corpus = store.path(paths.CORPUS_DIR)
    return sorted(info.path for d in CONFIG_DIRS for info in list_files(store.fs, join_path(corpus, d))
                  if old.match(info.base_name))


def migrate(store: Store, splits: list[str], dry_run: bool = False) -> list[str]:
    found = whole_split_shards(store, splits)
    if not dry_run:
        for path in found:
            store.fs.delete_file(path)
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="storage root (default: REVIEWBENCH_STORAGE_ROOT, else var/storage)")
    ap.add_argument("--dry-run", action="store_true", help="list the old shards, delete nothing")
    args = ap.parse_args(argv)
    from resources import StorageResource
    from reviewbench_assets.definitions import build_resources

    storage = build_resources()["storage"]  # the root and S3 settings the assets use
    if args.root:
        storage = StorageResource(root=args.root, s3=storage.s3)
    found = migrate(storage.store(), catalogue().splits, args.dry_run)
    for path in found:
        print(("would remove " if args.dry_run else "removed ") + path)
    print(f"{len(found)} whole-split shard(s) of the layout before parts")
    untyped = migrate_typed_reviews(storage.store(), [v.key for v in catalogue().venues], args.dry_run)
    for path in untyped:
        print(("would rewrite " if args.dry_run else "rewrote ") + path)
    print(f"{len(untyped)} file(s) of the layout before typed reviews")
    return 0


if __name__ == "__main__":
    sys.exit(main())
