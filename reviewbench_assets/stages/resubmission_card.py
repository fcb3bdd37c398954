"""The dataset card's `resubmissions` config (issue 37 item 2): the resubmissions stage's chains,
published into the corpus folder with the card (`resubmissions/chains.parquet`, one publication), its
entry in the card's front matter, and its section, whose figures (chains, venue pairs, how often a
rejected paper was later accepted) are computed from the rows published."""
from __future__ import annotations

import pyarrow as pa

from reviewbench_assets.domain.resubmission_rows import CHAIN_SCHEMA, CONFIG_FILE, card_section, chain_figures
from reviewbench_assets.io.stage_io import Staging


def publish_chains(pub: Staging, chains: pa.Table | None) -> tuple[str, int]:
    """Stage the config's file in the corpus folder in `pub`, the card's publication (or its removal
    when there are no chains); the card's section and the number of chains."""
    if chains is None or chains.num_rows == 0:
        pub.remove_in("CORPUS_DIR", CONFIG_FILE)
        return "", 0
    table = chains.cast(CHAIN_SCHEMA)
    with pub.parquet_in("CORPUS_DIR", CONFIG_FILE, CHAIN_SCHEMA) as w:
        w.write_table(table)
    return card_section(chain_figures(table.to_pylist())), table.num_rows
