"""Stage logic that does I/O through the clients it is given (store, OpenReview API, LLM):
Dagster-free, so each stage is testable without Dagster or HTTP. Rules live in `domain/`. Every
stage is a `stage.Stage` (one `run(inputs, outputs)` on what it declares it reads and writes, figures
through `stat`, declared in `figures.yaml`)."""
