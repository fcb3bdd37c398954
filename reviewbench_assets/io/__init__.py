"""The one IO layer between stages (issue 28 item 1): where every file lives and which stage owns it
(`layout`: `paths`, the one place a path is spelled), what each stage reads of the stages before it
(`upstream.Upstream`, one typed accessor per input, as Dagster's `project_fully_featured` IO managers
give an asset its inputs; `views.duckdb_views` lays DuckDB views over the partitioned Parquet, like its
`duckdb_parquet_io_manager`), the check verdicts recorded on the files (`verdicts`), the corpus
folder's shard names (`shards`) and the partition's run attempt with its kept OpenReview answers
(`attempt`). A stage builds the paths of its own outputs only; everything it reads from another stage
comes through here, so no stage knows another's files (tests/test_architecture.py). Dagster-free,
like the stages."""
