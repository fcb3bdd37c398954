"""Recording what changed in a venue-year at each refresh (issue 30 items 2 and 3): the parsed forums of
this refresh are compared with the snapshots the previous refresh left (domain/changes.py), the changes
are appended as one Parquet file per refresh under `changes/<pk>/log/refresh=<time>/`, the snapshots
replaced, and each review's score trajectory (its edit history merged with the daily observations,
domain/trajectories.py) and the venue-year's daily figures rewritten, all in one publish: a run killed
before it records nothing and its re-run finds the same changes; one killed after it finds none left
to record (nothing lost, nothing counted twice).

Query the history with DuckDB:
`SELECT refresh, change, count(*) FROM read_parquet('changes/<pk>/log/*/*.parquet', hive_partitioning=true)
WHERE NOT ends_with(change, '_observed') GROUP BY ALL` (the first refresh's rows are its baseline, not changes).
"""
from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

import pyarrow as pa

from resources.store import CorruptFileError
from reviewbench_assets.domain.changes import Change, apply_changes, snapshot, summary, venue_changes
from reviewbench_assets.domain.posts import ParsedForum
from reviewbench_assets.domain.trajectories import daily_figures, merged_trajectory
from reviewbench_assets.io.stage_io import Inputs, Outputs, Staging
from reviewbench_assets.stages.figures import CHANGES, ROW_COUNT, Markdown, Table
from reviewbench_assets.stages.stage import Stage

STATE_SCHEMA = pa.schema([("forum_id", pa.string()), ("snapshot_json", pa.string())])
CHANGE_SCHEMA = pa.schema([
    ("refreshed_at", pa.timestamp("ms", tz="UTC")), ("forum_id", pa.string()), ("change", pa.string()),
    ("target_id", pa.string()), ("old_value", pa.string()), ("new_value", pa.string()),
    ("old_rating", pa.float64()), ("new_rating", pa.float64()), ("old_confidence", pa.float64()),
    ("new_confidence", pa.float64()), ("role", pa.string()), ("at_ms", pa.int64()),
])
TRAJECTORY_SCHEMA = pa.schema([
    ("forum_id", pa.string()), ("review_id", pa.string()), ("time", pa.timestamp("ms", tz="UTC")),
    ("rating", pa.float64()), ("confidence", pa.float64()), ("source", pa.string()), ("edit_id", pa.string()),
])
DAILY_SCHEMA = pa.schema([("day", pa.string()), ("reviews", pa.int64()), ("mean_rating", pa.float64()),
                          ("share_changed", pa.float64())])
BATCH = 1024
STAMP = "%Y-%m-%dT%H%M%S.%fZ"  # a refresh's folder name (sorts as time)
SCORE_SEEN = ("review_added", "review_edited", "review_observed")  # rows that saw a review's scores


def previous_snapshots(outputs: Outputs) -> dict[str, dict]:
    """The snapshots the previous refresh left; when its state file is gone (deleted after its
    publication, issue 38.8) but refreshes were logged, they are rebuilt by replaying the log (the
    log says everything: `apply_changes`), never taken as a first build's empty state."""
    if not outputs.exists("change_state"):
        state: dict[str, dict] = {}
        for log in outputs.files("change_log_dir"):
            if log.rsplit("/", 1)[-1].startswith("."):
                continue  # a dead refresh's staging, never published
            rows = [r for batch in outputs.parquet_batches(log, BATCH) for r in batch.to_pylist()]
            state = apply_changes(state, [Change(**{k: r[k] for k in Change.model_fields}) for r in rows])
        return state
    out = {}
    for batch in outputs.parquet_batches(outputs.path("change_state"), BATCH):
        for fid, js in zip(batch.column("forum_id").to_pylist(), batch.column("snapshot_json").to_pylist(), strict=True):
            out[fid] = json.loads(js)
    return out


def _refresh_time(path: str) -> datetime:
    stamp = next(part for part in path.split("/") if part.startswith("refresh=")).removeprefix("refresh=")
    return datetime.strptime(stamp, STAMP).replace(tzinfo=UTC)


def _observations(outputs: Outputs) -> Iterator[tuple[datetime, list[dict]]]:
    """Each refresh recorded so far (oldest first) with its score observations (reviews added or
    whose scores changed); a refresh without changes comes with an empty list."""
    cols = ["change", "target_id", "new_rating", "new_confidence"]
    for path in outputs.files("change_log_dir"):
        rows = [row for batch in outputs.parquet_batches(path, BATCH, columns=cols)
                for row in batch.to_pylist() if row["change"] in SCORE_SEEN]
        yield _refresh_time(path), rows


class ChangesStage(Stage):
    """`forums`: the parsed forums of this refresh (None: the venue-year's `parsed_forums`);
    `now`: the refresh's time (None: the clock's)."""

    name = CHANGES
    reads = ("parsed_forums",)
    writes = ("change_state", "change_log", "change_log_dir", "change_trajectories", "change_daily",
              "change_daily_plot")

    def __init__(self, pk: str, forums: Iterable[ParsedForum] | None = None, now: datetime | None = None):
        super().__init__(pk)
        self.forums, self.now = forums, now

    def run(self, inputs: Inputs, outputs: Outputs) -> None:
        pk = self.key
        now = (self.now or datetime.now(UTC)).astimezone(UTC)
        forums = self.forums if self.forums is not None else (f for f, _routing in inputs.parsed_forums())
        # One writer per venue-year: the snapshot read here and the one published below must be the same
        # generation, so two refreshes of one venue-year (a schedule tick and a manual run, two CLI
        # runs) take turns instead of both recording the same changes.
        with outputs.lock(f"changes-{pk}"):
            changes, current, stamp, first, daily = _diff_and_publish(outputs, forums, now)
        self.stat("changes", outputs.rel("change_log", pk, stamp))
        self.stat("state", outputs.rel("change_state"))
        self.stat("trajectories", outputs.rel("change_trajectories"))
        self.stat("daily", outputs.rel("change_daily"))
        self.stat("daily_plot", outputs.rel("change_daily_plot"))
        self.stat(ROW_COUNT, len(changes))
        figures = summary(changes)
        self.stat("observed", figures["observed"])
        self.stat("forums_changed", figures["forums_changed"])
        self.stat("by_kind", figures["by_kind"])
        self.stat("ratings_up", figures["ratings_up"])
        self.stat("ratings_down", figures["ratings_down"])
        self.stat("mean_rating_move", figures["mean_rating_move"])
        self.stat("first_refresh", first)
        self.stat("forums", len(current))
        self.stat("as_of", now.isoformat(timespec="seconds"))
        self.stat("daily_ratings", Markdown("\n".join(
            ["| day (UTC) | reviews | mean rating | share changed |", "|---|---:|---:|---:|"]
            + [f"| {d['day']} | {d['reviews']} | {d['mean_rating']} | {d['share_changed']} |" for d in daily[-14:]])))
        moves = [c.model_dump() for c in changes if c.change == "review_edited"][:10]
        self.stat("preview", Table(moves or [c.model_dump() for c in changes[:10]],
                                   ["forum_id", "change", "target_id", "old_rating", "new_rating"]))


def _diff_and_publish(outputs: Outputs, forums: Iterable[ParsedForum], now: datetime):
    pk = outputs.key
    stamp = now.strftime(STAMP)
    logs = [p for p in outputs.files("change_log_dir") if "/." not in p]
    if outputs.exists("change_state") and not logs:  # its history deleted after publication
        raise CorruptFileError(outputs.path("change_log_dir"), "no refresh is logged, yet the state of one "
                               "is published: the history was deleted and cannot be rebuilt; restore it, or "
                               f"remove changes/{pk}/ to start a new history with a baseline")
    first = not logs  # nothing observed before: a baseline
    previous = previous_snapshots(outputs)
    current, histories = {}, {}
    for p in forums:
        current[p.forum_id] = snapshot(p)
        for r in p.reviews:  # only what the trajectories need is kept, not the forum
            histories[r["review_id"]] = (p.forum_id, r.get("score_history") or [])
    changes: list[Change] = list(venue_changes(previous, current, baseline=first))
    observed: dict[str, list] = {}
    refresh_ms = [int(now.timestamp() * 1000)]
    for refreshed, rows in _observations(outputs):
        t = int(refreshed.timestamp() * 1000)
        refresh_ms.append(t)
        for row in rows:
            observed.setdefault(row["target_id"], []).append((t, row["new_rating"], row["new_confidence"]))
    for c in changes:
        if c.change in SCORE_SEEN:
            observed.setdefault(c.target_id, []).append((refresh_ms[0], c.new_rating, c.new_confidence))
    trajectories = {rid: merged_trajectory(hist, observed.get(rid, [])) for rid, (_, hist) in histories.items()}
    daily = daily_figures(trajectories, refresh_ms)
    # Each refresh logs into a folder of its own, so no later publication goes into the folder of a
    # refresh killed before its commit: its staged log is removed here, under the venue-year's lock.
    outputs.sweep_staging("change_log_dir")
    with outputs.publish() as pub:  # log, snapshots, trajectories and figures move into place together
        _write(pub, "change_log", CHANGE_SCHEMA, ({"refreshed_at": now, **c.model_dump()} for c in changes), pk, stamp)
        _write(pub, "change_state", STATE_SCHEMA,
               ({"forum_id": f, "snapshot_json": json.dumps(s, sort_keys=True)} for f, s in current.items()))
        _write(pub, "change_trajectories", TRAJECTORY_SCHEMA,
               ({"forum_id": histories[rid][0], "review_id": rid, **pt,
                 "time": datetime.fromtimestamp(pt["time"] / 1000, tz=UTC)}
                for rid, points in trajectories.items() for pt in points))
        _write(pub, "change_daily", DAILY_SCHEMA, iter(daily))
        pub.put("change_daily_plot", daily_plot(pk, daily, now))
    return changes, current, stamp, first, daily


def _write(pub: Staging, name: str, schema: pa.Schema, rows: Iterator[dict], *args: str) -> None:
    """The declared Parquet file `name`, staged in `pub`, from `rows` in batches."""
    with pub.parquet(name, schema, *args) as w:
        buf: list[dict] = []
        for row in rows:
            buf.append(row)
            if len(buf) >= BATCH:
                w.write_table(pa.Table.from_pylist(buf, schema=schema))
                buf = []
        w.write_table(pa.Table.from_pylist(buf, schema=schema))


def daily_plot(pk: str, daily: list[dict], as_of: datetime) -> bytes:
    """Per refresh day, the mean rating (line) and the share of reviews changed so far (bars)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.2))
    days = [d["day"][5:] for d in daily]
    ax2 = ax.twinx()
    ax2.bar(days, [d["share_changed"] or 0 for d in daily], color="#cfd8e3", label="share of reviews changed")
    ax.plot(days, [d["mean_rating"] for d in daily], marker="o", color="#1f4e79", label="mean rating")
    ax.set_zorder(ax2.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_ylabel("mean rating")
    ax2.set_ylabel("share changed")
    ax.set_title(f"{pk}: ratings during the discussion (as of {as_of:%Y-%m-%d %H:%M} UTC)", fontsize=9)
    ax.tick_params(axis="x", labelrotation=45, labelsize=7)
    fig.legend(loc="upper left", fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()
