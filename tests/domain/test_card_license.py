"""The card's license from the records' licenses, and the `datasets` filter the README gives."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from reviewbench_assets.domain.licenses import card_license, license_table


def test_one_license_everywhere_is_its_hub_id_and_any_mix_is_other():
    assert card_license({"train": {"CC BY 4.0": 10}}, {"train": {"CC BY 4.0": 40}}) == "cc-by-4.0"
    assert card_license({"train": {"CC0 1.0": 3}}, {}) == "cc0-1.0"
    assert card_license({"train": {"CC BY 4.0": 10}}, {"train": {"CC BY 4.0": 39, "unknown": 1}}) == "other"
    assert card_license({"a": {"unknown": 2}}, {"a": {"unknown": 5}}) == "unknown"
    assert card_license({"a": {"GPL": 2}}, {}) == "other"
    assert card_license({}, {}) == "unknown"
    table = license_table({"iclr": {"CC BY 4.0": 2, "CC BY-NC 4.0": 1}}, {"iclr": {"CC BY 4.0": 7}})
    assert table.splitlines()[2:] == ["| papers | iclr | CC BY 4.0 | 2 |", "| papers | iclr | CC BY-NC 4.0 | 1 |",
                                      "| reviews | iclr | CC BY 4.0 | 7 |"]


def test_the_readme_filter_keeps_only_records_under_one_license(tmp_path):
    from datasets import load_dataset

    (tmp_path / "provenance").mkdir()
    (tmp_path / "data").mkdir()
    pq.write_table(pa.table({"forum_id": ["a", "b", "c"], "license": ["CC BY 4.0", "unknown", "CC BY-NC 4.0"]}),
                   tmp_path / "provenance" / "iclr-00000-of-00001.parquet")
    pq.write_table(pa.table({"forum_id": ["a", "b", "c"], "title": ["A", "B", "C"]}),
                   tmp_path / "data" / "iclr-00000-of-00001.parquet")
    files = {"provenance": str(tmp_path / "provenance" / "*.parquet"), "data": str(tmp_path / "data" / "*.parquet")}
    # the README's recipe: the ids under a license from `provenance`, then the papers with those ids
    prov = load_dataset("parquet", data_files=files["provenance"], split="train")
    keep = set(prov.filter(lambda r: r["license"] == "CC BY 4.0")["forum_id"])
    papers = load_dataset("parquet", data_files=files["data"], split="train").filter(lambda r: r["forum_id"] in keep)
    assert papers["title"] == ["A"]
