"""Files published as one set (`Store.publish`), each written through the publication's target as
a stage's writer does: for tests that need published data, or race a reader against it."""
from __future__ import annotations


def publish_set(store, files: dict[str, bytes]) -> None:
    """`files` (full store path -> bytes) published together: all of them or, on a fault, none."""
    with store.publish() as pub:
        for path, data in files.items():
            with store.fs.open_output_stream(pub.target(path)) as f:
                f.write(data)
