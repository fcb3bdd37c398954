"""The venue catalogue: 22 ReviewBench venue-years, validated with errors that name entry and field."""
import pytest
import yaml

from partitions.catalogue import CATALOGUE_PATH, CatalogueError, catalogue, parse_catalogue
from partitions.definitions import split_partition_mapping, venue_year_partitions


def test_catalogue_has_the_22_reviewbench_venue_years():
    c = catalogue()
    assert len(c.venues) == 22
    assert c.splits == ["neurips", "iclr", "icml", "tmlr", "emnlp", "corl", "colm"]
    assert c.keys_for_split("iclr") == [f"iclr-{y}" for y in range(2020, 2027)]
    assert len(c.keys_for_split("neurips")) == 6 and "neurips-2023-datasets_and_benchmarks" in c.keys
    assert c.keys_for_split("corl") == [f"corl-{y}" for y in range(2021, 2025)]
    assert venue_year_partitions.get_partition_keys() == c.keys


@pytest.mark.parametrize("key,api,submission", [
    ("iclr-2020", "v1", "ICLR.cc/2020/Conference/-/Blind_Submission"),
    ("iclr-2024", "v2", "ICLR.cc/2024/Conference/-/Submission"),
    ("neurips-2022", "v1", "NeurIPS.cc/2022/Conference/-/Blind_Submission"),
    ("corl-2023", "v1", "robot-learning.org/CoRL/2023/Conference/-/Blind_Submission"),
    ("corl-2024", "v2", "robot-learning.org/CoRL/2024/Conference/-/Submission"),
    ("tmlr", "v2", "TMLR/-/Submission"),
])
def test_api_version_and_submission_invitation(key, api, submission):
    v = catalogue().get(key)
    assert v.api == api
    assert v.submission_invitations(v.venue_ids[0]) == [submission]


def test_emnlp_findings_is_a_track_of_the_same_venue():
    v = catalogue().get("emnlp-2023")
    assert set(v.tracks) == {"main", "findings"} and v.venue_ids == ["EMNLP/2023/Conference"]
    assert v.track_from_venue == {"findings": "Findings"}


def test_deadlines_are_utc_and_tmlr_is_rolling():
    assert catalogue().get("iclr-2024").deadline_ms == 1695945599000  # 2023-09-28T23:59:59Z
    assert catalogue().get("tmlr").deadline_ms is None


def test_split_mapping_selects_only_that_conference():
    mapping = split_partition_mapping("colm")
    assert mapping.partition_keys == ["colm-2024", "colm-2025"]


def _doc_with(change):
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    change(doc["venues"])
    return doc


@pytest.mark.parametrize("change,needle", [
    (lambda v: v[10].update(api="v3"), "entry #10 (key='iclr-2024'): field api"),
    (lambda v: v[10].update(submission_deadline="2023-09-28T23:59:59"), "field submission_deadline"),
    (lambda v: v[10].update(year=2023), "key='iclr-2024'"),
    (lambda v: v[0].update(tracks={"poster": "X"}), "entry #0 (key='neurips-2021'): field tracks"),
    (lambda v: v.append(dict(v[0])), "duplicate key 'neurips-2021'"),
    (lambda v: v[3].pop("conference"), "field conference"),
])
def test_a_wrong_entry_names_entry_and_field(change, needle):
    with pytest.raises(CatalogueError) as exc:
        parse_catalogue(_doc_with(change), source="venues.yaml")
    assert needle in str(exc.value)
