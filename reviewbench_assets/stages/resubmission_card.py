"""The dataset card's `resubmissions` config (issue 37 item 2): the resubmissions stage's chains,
published into the corpus folder with the card (`resubmissions/chains.parquet`, one publication), its
entry in the card's front matter, and its section, whose figures (chains, venue pairs, how often a
rejected paper was later accepted) are computed from the rows published."""
from __future__ import annotations

import pyarrow as pa

from resources.store import Store
from resources.store_publish import Publication
from reviewbench_assets.domain.resubmission_rows import CHAIN_SCHEMA, CONFIG_FILE, card_section, chain_figures
from reviewbench_assets.io.shards import join_path
from reviewbench_assets.io.stage_io import staged_parquet


def publish_chains(store: Store, corpus: str, pub: Publication, chains: pa.Table | None) -> tuple[str, int]:
    """Stage the config's file in `pub` (or its removal when there are no chains); the card's section
    and the number of chains."""
    path = join_path(corpus, CONFIG_FILE)
    if chains is None or chains.num_rows == 0:
        if store.exists(path):
            pub.remove_after([path])
        return "", 0
    table = chains.cast(CHAIN_SCHEMA)
    with staged_parquet(store, pub, path, CHAIN_SCHEMA) as w:
        w.write_table(table)
    return card_section(chain_figures(table.to_pylist())), table.num_rows
