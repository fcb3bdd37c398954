"""The card as the UI shows it and as its own statistics say: front matter in a code block (no run-on
list, globs not italics), the rolling partition `tmlr` by its key, prose that agrees with the table."""
from __future__ import annotations

import yaml

from resources.store import store_from_uri
from reviewbench_assets.domain.card import card_for_ui, render_dataset_card
from reviewbench_assets.stages.split_stage import SplitStage, update_conference_split
from tests.splits.conftest import write_venue_rows


def _tmlr_card(tmp_path, local_fs, rows_factory, input_writer) -> str:
    rows = rows_factory("iclr-2024", 9)
    for i, r in enumerate(rows):  # TMLR rows carry their submission year; the partition has none
        r.update(conference="tmlr", venue_id="TMLR", track="main", year=2023 + i % 2)
    write_venue_rows(local_fs, str(tmp_path), "tmlr", rows)  # the rows step's writer and its statistics
    stats = {"tmlr": update_conference_split(SplitStage.outputs_in(store_from_uri(str(tmp_path)), "tmlr"), ["tmlr"]).stats}
    return render_dataset_card(stats, {"review": {"train": "review/*_train-*"}}, "2026-11-23T03:00:00+00:00")


def test_card_prose_follows_its_statistics(tmp_path, local_fs, rows_factory, input_writer):
    text = _tmlr_card(tmp_path, local_fs, rows_factory, input_writer)
    assert "**1 conference**" in text and "1 conferences" not in text
    assert "| tmlr | tmlr |" in text and "`tmlr`" in text  # keyed by the partition ...
    assert "tmlr-2023" not in text and "tmlr-2024" not in text  # ... not by years it does not have
    # the table shows rejected TMLR papers, so the prose may not say there are none
    assert "only contain accepted" not in text
    accepted_row = next(line for line in text.splitlines() if line.startswith("| tmlr | `tmlr`"))
    assert "100.0%" not in accepted_row


def test_card_for_ui_puts_the_front_matter_in_a_code_block(tmp_path, local_fs, rows_factory, input_writer):
    text = _tmlr_card(tmp_path, local_fs, rows_factory, input_writer)
    ui = card_for_ui(text)
    assert ui.startswith("```yaml\n") and not ui.startswith("---")
    block, _, body = ui[len("```yaml\n"):].partition("```\n")
    assert yaml.safe_load(block)["configs"]  # the whole front matter, still valid YAML
    assert "review/*_train-*" in block  # the glob sits in the code block, where `*` is not emphasis
    assert body.lstrip().startswith("# ReviewBench")
    assert card_for_ui("# no front matter\n") == "# no front matter\n"
