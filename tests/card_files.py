"""A dataset card written into a folder outside any stage run, for tests that build a corpus folder by
hand and load it with `datasets`: production stages README.md in the card stage's publication
(stages/card_stage.py `write_dataset_card`, issue 39 item 5: no production function kept for the tests
alone)."""
from __future__ import annotations

import pyarrow.fs as pafs

from resources.store import Store


def write_dataset_card(fs: pafs.FileSystem, out_dir: str, text: str) -> str:
    """Write ``out_dir/README.md`` atomically. Returns the final path."""
    store = Store(fs, out_dir)
    final = store.path("README.md")
    store.write_bytes(final, text.encode("utf-8"))
    return final
