"""SQL over the stored data without knowing where any stage keeps its files: DuckDB views over the
stages' partitioned Parquet (`reviewbench_assets/io/views.py`: parsed, parsed_quarantine, pdfs,
markdown, review_records, rebuttal_records, rows, provenance; each with a `partition` column; and the
corpus-level resubmission_links, resubmission_chains, resubmission_left_alone).

    python -m scripts.sql "SELECT partition, count(*) FROM parsed GROUP BY ALL"
    python -m scripts.sql --keys iclr-2024 "SELECT rule, count(*) FROM pdfs GROUP BY ALL"
    python -m scripts.sql "SELECT c.chain_id, s.venue_year, s.decision FROM resubmission_chains c, unnest(c.steps) t(s)"
"""
from __future__ import annotations

import argparse
import sys

from partitions.catalogue import catalogue


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("query", help="the SQL to run")
    ap.add_argument("--root", help="storage root (default: REVIEWBENCH_STORAGE_ROOT, else var/storage)")
    ap.add_argument("--keys", help="venue-years, comma-separated (default: every one of the catalogue)")
    args = ap.parse_args(argv)
    from resources import StorageResource
    from reviewbench_assets.definitions import build_resources
    from reviewbench_assets.io.views import duckdb_views

    storage = build_resources()["storage"]  # the root and S3 settings the assets use
    if args.root:
        storage = StorageResource(root=args.root, s3=storage.s3)
    keys = args.keys.split(",") if args.keys else catalogue().keys
    duckdb_views(storage.store(), keys).sql(args.query).show(max_width=200)
    return 0


if __name__ == "__main__":
    sys.exit(main())
