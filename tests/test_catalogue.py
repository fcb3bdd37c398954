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
    assert v.invitations.submission.format(venue_id=v.venue_ids[0]) == submission


def test_emnlp_findings_is_a_track_of_the_same_venue():
    v = catalogue().get("emnlp-2023")
    assert set(v.tracks) == {"main", "findings"} and v.venue_ids == ["EMNLP/2023/Conference"]
    assert v.track_from_venue == {"findings": "Findings"}


# The UTC instants of docs/deadlines.md (research notes, independent of the catalogue's
# local-time entries): the catalogue must convert every announced deadline to exactly these.
ANNOUNCED_UTC = {
    "neurips-2021": "2021-05-28T20:00:00Z", "neurips-2022": "2022-05-19T20:00:00Z",
    "neurips-2023": "2023-05-17T20:00:00Z", "neurips-2023-datasets_and_benchmarks": "2023-06-07T20:00:00Z",
    "neurips-2024": "2024-05-22T20:00:00Z", "neurips-2025": "2025-05-16T11:59:59Z",
    "iclr-2020": "2019-09-25T15:00:00Z", "iclr-2021": "2020-10-02T15:00:00Z", "iclr-2022": "2021-10-06T00:00:00Z",
    "iclr-2023": "2022-09-29T11:59:59Z", "iclr-2024": "2023-09-29T11:59:59Z", "iclr-2025": "2024-10-02T11:59:59Z",
    "iclr-2026": "2025-09-25T11:59:59Z", "icml-2025": "2025-01-31T11:59:59Z", "emnlp-2023": "2023-06-24T11:59:59Z",
    "corl-2021": "2021-06-19T06:59:59Z", "corl-2022": "2022-06-16T11:59:59Z", "corl-2023": "2023-06-09T11:59:59Z",
    "corl-2024": "2024-06-07T11:59:59Z", "colm-2024": "2024-03-30T11:59:59Z", "colm-2025": "2025-03-29T11:59:59Z",
}


@pytest.mark.parametrize("key", sorted(ANNOUNCED_UTC))
def test_announced_deadline_converts_to_the_researched_utc_instant(key):
    from datetime import datetime
    v = catalogue().get(key)
    want = datetime.fromisoformat(ANNOUNCED_UTC[key].replace("Z", "+00:00"))
    assert v.submission_deadline == want, (key, v.deadline.announced)
    assert v.deadline.source and v.deadline.confidence in ("high", "medium", "low")
    # OpenReview accepts uploads until expdate = deadline + 30 min (openreview-py SHORT_BUFFER_MIN)
    assert v.cutoff_ms - v.deadline_ms == 30 * 60_000


def test_aoe_is_utc_minus_12_and_tmlr_is_rolling():
    v = catalogue().get("iclr-2023")
    assert (v.deadline.tz, v.deadline.date.isoformat(), v.deadline.time.isoformat()) == ("AoE", "2022-09-28", "23:59:59")
    assert v.deadline_ms == 1664452799000  # 2022-09-29T11:59:59Z, not 2022-09-28T23:59:59Z
    t = catalogue().get("tmlr")
    assert t.rolling and t.deadline_ms is None and t.cutoff_ms is None


def test_low_confidence_deadlines_say_so():
    low = {v.key for v in catalogue().venues if v.deadline and v.deadline.confidence == "low"}
    assert {"neurips-2023-datasets_and_benchmarks", "corl-2021", "corl-2022", "corl-2023"} <= low
    assert "iclr-2024" not in low


def test_deadline_invitation_is_the_dated_one():
    assert catalogue().get("iclr-2020").deadline_invitations() == ["ICLR.cc/2020/Conference/-/Submission"]
    assert catalogue().get("emnlp-2023").deadline_invitations() == ["EMNLP/2023/Conference/-/Submission"]


def test_split_mapping_selects_only_that_conference():
    mapping = split_partition_mapping("colm")
    assert mapping.partition_keys == ["colm-2024", "colm-2025"]


def _doc_with(change):
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    change(doc["venues"])
    return doc


@pytest.mark.parametrize("change,needle", [
    (lambda v: v[10].update(api="v3"), "entry #10 (key='iclr-2024'): field api"),
    (lambda v: v[10]["deadline"].update(tz="Mars/Olympus"), "entry #10 (key='iclr-2024'): field deadline.tz"),
    (lambda v: v[10].pop("deadline"), "entry #10 (key='iclr-2024'): field (entry): Value error, deadline is required"),
    (lambda v: v[10].update(conference="iclrx", key="iclrx-2024"), "field conference: 'iclrx' is not a family"),
    (lambda v: v[10].update(scales=["nope"]), "field scales: unknown scale set 'nope'"),
    (lambda v: v[10]["deadline"].update(abstract_date="2023-10-30"), "abstract deadline must come before"),
    (lambda v: v[10].update(split="workshops"), "field split: 'workshops' is not among splits"),
    (lambda v: v[10].update(year=2023), "key='iclr-2024'"),
    (lambda v: v[0].update(tracks={"poster": "X"}), "entry #0 (key='neurips-2021'): field tracks"),
    (lambda v: v.append(dict(v[0])), "duplicate key 'neurips-2021'"),
    (lambda v: v[3].pop("conference"), "field conference"),
])
def test_a_wrong_entry_names_entry_and_field(change, needle):
    with pytest.raises(CatalogueError) as exc:
        parse_catalogue(_doc_with(change), source="venues.yaml")
    assert needle in str(exc.value)


def _full_doc_with(change):
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    change(doc)
    return doc


@pytest.mark.parametrize("change,needle", [
    (lambda d: d["families"]["iclr"].update(split="conferences"), "families.iclr: field split"),
    (lambda d: d["rating_scales"]["ten_point"].update(rating=[10, 1]), "rating_scales.ten_point.rating"),
    (lambda d: d["rating_scales"]["corl"].update(rating=[1, 4, {"Strong accept": 9}]), "rating_scales.corl.rating"),
    (lambda d: d.update(tracks=[]), "field tracks: a non-empty list"),
])
def test_families_splits_tracks_and_scales_are_checked(change, needle):
    with pytest.raises(CatalogueError) as exc:
        parse_catalogue(_full_doc_with(change), source="venues.yaml")
    assert needle in str(exc.value)


def test_a_workshop_and_a_new_family_are_catalogue_data_only():
    def add(doc):
        doc["families"]["uai"] = {"split": "uai", "name": "UAI"}
        doc["splits"].append("uai")
        doc["venues"] += [
            {"key": "neurips-2018-workshop-irasl", "conference": "neurips", "year": 2018, "api": "v1",
             "tracks": {"workshop": "NeurIPS.cc/2018/Workshop/IRASL"}, "scales": ["ten_point"],
             "deadline": {"date": "2018-10-19", "tz": "AoE", "source": "test", "confidence": "low"}},
            {"key": "uai-2024", "conference": "uai", "year": 2024, "api": "v2",
             "tracks": {"main": "auai.org/UAI/2024/Conference"}, "scales": ["ten_point"],
             "deadline": {"date": "2024-02-09", "time": "23:59:59", "tz": "Europe/Madrid", "source": "test",
                          "confidence": "low", "grace_minutes": 0}}]
    c = parse_catalogue(_full_doc_with(add))
    w = c.get("neurips-2018-workshop-irasl")
    assert w.split == "neurips" and w.venue_ids == ["NeurIPS.cc/2018/Workshop/IRASL"]
    assert w.submission_deadline.isoformat() == "2018-10-20T11:59:59+00:00"
    u = c.get("uai-2024")
    assert c.splits[-1] == "uai" and c.keys_for_split("uai") == ["uai-2024"]
    assert u.submission_deadline.isoformat() == "2024-02-09T22:59:59+00:00"  # CET (UTC+1) in February
    assert u.cutoff_ms == u.deadline_ms  # a venue that set no grace


def test_reviewbench_catalogue_env_names_another_file(tmp_path):
    import subprocess
    import sys
    doc = yaml.safe_load(CATALOGUE_PATH.read_text())
    doc["venues"] = [v for v in doc["venues"] if v["key"] in ("iclr-2024", "tmlr")]
    path = tmp_path / "cat.yaml"
    path.write_text(yaml.safe_dump(doc))
    code = ("from partitions.definitions import venue_year_partitions as p; "
            "print(','.join(p.get_partition_keys()))")
    env = {**__import__("os").environ, "REVIEWBENCH_CATALOGUE": str(path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "iclr-2024,tmlr"
    env["REVIEWBENCH_CATALOGUE"] = str(tmp_path / "missing.yaml")
    bad = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and "names no catalogue file" in bad.stderr


# --- errors in a catalogue file name the file, the line, the entry and the field (issue 22) ------------

def _write_catalogue(tmp_path, text: str):
    path = tmp_path / "venues.yaml"
    path.write_text(text)
    return path


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def _load_error(path) -> str:
    from partitions.catalogue import load_catalogue
    with pytest.raises(CatalogueError) as exc:
        load_catalogue(path)
    return str(exc.value)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    text = CATALOGUE_PATH.read_text()
    broken = text.replace("  - {key: iclr-2024, conference: iclr, year: 2024, api: v2,",
                          "  - {key: iclr-2024, conference: iclr, year: 2024, api: v2, tracks: {main: [unclosed,", 1)
    path = _write_catalogue(tmp_path, broken)
    msg = _load_error(path)
    assert f"{path}:" in msg and "YAML syntax" in msg and "<unicode string>" not in msg
    line = int(msg.split(f"{path}:")[1].split(":")[0])
    bad = _line_of(broken, "[unclosed")
    # the parser stops a few lines after the unclosed bracket and names the line where the entry opened
    assert bad <= line <= bad + 5 and f"at line {bad})" in msg


def test_impossible_date_names_file_line_entry_and_field(tmp_path):
    text = CATALOGUE_PATH.read_text()
    start = text.index("{key: iclr-2024,")
    date_at = text.index("date: 2023-09-28", start)
    broken = text[:date_at] + "date: 2023-09-31" + text[date_at + len("date: 2023-09-28"):]
    path = _write_catalogue(tmp_path, broken)
    msg = _load_error(path)
    assert f"{path}:{_line_of(broken, 'date: 2023-09-31')}: " in msg
    assert "key='iclr-2024'" in msg and "field deadline.date" in msg and "2023-09-31" in msg


def test_empty_file_is_named(tmp_path):
    for text in ("", "# only a comment\n"):
        path = _write_catalogue(tmp_path, text)
        msg = _load_error(path)
        assert f"{path}: the file is empty" in msg


def test_unknown_keys_name_line_entry_and_field(tmp_path):
    text = CATALOGUE_PATH.read_text()
    broken = text.replace("{key: iclr-2024, conference: iclr,", "{key: iclr-2024,\n     deadlien: oops, conference: iclr,", 1)
    broken = "venus: []\n" + broken
    path = _write_catalogue(tmp_path, broken)
    msg = _load_error(path)
    assert f"{path}:{_line_of(broken, 'deadlien')}: entry #" in msg and "key='iclr-2024'" in msg
    assert "field deadlien: Extra inputs are not permitted" in msg
    assert f"{path}:1: unknown top-level field 'venus'" in msg


def test_deadline_far_from_the_venue_year_is_refused(tmp_path):
    text = CATALOGUE_PATH.read_text()
    start = text.index("{key: iclr-2024,")
    date_at = text.index("date: 2023-09-28", start)
    broken = text[:date_at] + "date: 2032-09-28" + text[date_at + len("date: 2023-09-28"):]
    msg = _load_error(_write_catalogue(tmp_path, broken))
    assert "key='iclr-2024'" in msg and "deadline 2032-09-28 lies" in msg and "outside the venue's year 2024" in msg
    # every real entry is within the bound (ICLR's deadlines are 4 months before its year)
    assert catalogue().get("iclr-2024").deadline.date.isoformat() == "2023-09-28"
