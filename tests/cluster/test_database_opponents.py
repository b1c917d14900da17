"""Other runs' champions in the fitness pool (issue 36 part 2;
cluster/fitness/database_players.py, cluster/run/frozen_opponents.py):
``fitness.opponents`` may name ``champion:RUN``, which ``evolve`` freezes
into ``player:ID`` (the row of RUN's best so far when the run is created),
so the run plays that player in every generation and every resume, however
the other run goes on; a bad name is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genethello.cluster.config import ConfigError
from genethello.cluster.db import Database
from genethello.cluster.fitness.database_players import champion_run, database_player, player_spec
from genethello.cluster.measures.panel import check_panel_config
from genethello.cluster.reads.ranking import best
from genethello.cluster.reads.runs import find_run
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import RayExecutor, SerialExecutor
from genethello.cluster.run.frozen_opponents import freeze_champions
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_json, load_config

from .conftest import db_snapshot, query, snapshot_diff, write_config

#: A tiny depth-1 run: 4 all-2 members against the WPC heuristic, a hall every generation.
FIRST = dict(name="first", seed=1, population__type="all-2", population__size=4, breeding__method="cma-es",
             fitness__kind="fixed", fitness__opponents=["wpc"], fitness__games_per_opponent=2, fitness__depth=1,
             fitness__openings="distinct-4", hall__games_per_member=2, hall__every=1, stop__max_generations=2)
#: The same, also against the first run's champion, plainly and as an ε-player.
SECOND = FIRST | dict(name="second", fitness__opponents=["wpc", "champion:first", "eps0.3:champion:1"])


@pytest.mark.parametrize("spec, row", [("player:1", 1), ("player:42", 42), ("p_1_10", None), ("wpc", None),
                                       ("champion:7", None)])
def test_a_database_player_is_its_row(spec, row):
    assert database_player(spec) == row
    if row is not None:
        assert player_spec(row) == spec


@pytest.mark.parametrize("spec", ["player:", "player:0", "player:-3", "player:x", "player:1.5", "player:01",
                                  "player:" + "9" * 19])
def test_a_malformed_player_row_is_one_line(spec):
    with pytest.raises(ValueError, match=r"a database player is player:ID") as caught:
        database_player(spec)
    assert "\n" not in str(caught.value)


def test_a_champion_names_a_run():
    assert champion_run("champion:first") == "first" and champion_run("champion:12") == "12"
    assert champion_run("p_1_10") is None
    with pytest.raises(ValueError, match="name the run whose champion"):
        champion_run("champion: ")


def _drive(db_path: Path, config_path: Path, executor) -> tuple[str, int]:
    """Create the run as ``evolve`` does (its champions frozen) and drive it."""
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, freeze_champions(db, load_config(config_path)))
        return Coordinator(db, run_id, executor, Progress(enabled=False)).run(), run_id
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """FIRST then SECOND, serially, in one database; SECOND's stored opponents."""
    folder = tmp_path_factory.mktemp("champions")
    db = folder / "runs.db"
    assert _drive(db, write_config(folder, "first.toml", **FIRST), SerialExecutor(0.001))[0] == "finished"
    assert _drive(db, write_config(folder, "second.toml", **SECOND), SerialExecutor(0.001))[0] == "finished"
    return folder, db


def test_the_champion_is_frozen_to_its_row_and_played(two_runs):
    _, db_path = two_runs
    db = Database.open(db_path, create=False)
    try:
        champion = best(db, find_run(db, "first").id)
        second = find_run(db, "second").id
    finally:
        db.dispose()
    assert champion is not None
    stored = json.loads(query(db_path, "SELECT config_json FROM runs WHERE id = ?", second)[0][0])
    row = f"player:{champion.player_id}"
    assert stored["fitness"]["opponents"] == ["wpc", row, f"eps0.3:{row}"]
    # The hall of the second run is anchored on wpc and the champion (not its ε-player): the champion's
    # games are stored against its text.
    anchored = query(db_path, "SELECT count(*) FROM hall_games h JOIN chromosomes c ON c.id IN (h.black_id, "
                              "h.white_id) WHERE h.run_id = ? AND c.text = ?", second, champion.text)[0][0]
    assert anchored > 0
    assert config_from_json(json.dumps(stored)).fitness.opponents[1] == row       # resume reads it back


def test_a_run_with_a_frozen_champion_stores_the_same_on_ray_workers(ray_cluster, two_runs, tmp_path):
    """The frozen player is a row: Ray's workers play it from the payload
    the coordinator read, as the serial run did."""
    folder, reference_db = two_runs
    db = tmp_path / "runs.db"
    assert _drive(db, write_config(tmp_path, "first.toml", **FIRST), SerialExecutor(0.001))[0] == "finished"
    assert _drive(db, write_config(tmp_path, "second.toml", **SECOND), RayExecutor(2, 0.001, 2))[0] == "finished"
    reference, snap = db_snapshot(reference_db, "second"), db_snapshot(db, "second")
    assert snap == reference, snapshot_diff(snap, reference)


def test_the_frozen_champion_stays_when_the_other_run_goes_on(two_runs, tmp_path):
    """The first run goes on to generation 6 (its best so far changes) and the second to 3 after it:
    the second still plays the row it froze, and its first two generations
    are stored as before."""
    _, reference_db = two_runs
    db_path = tmp_path / "runs.db"
    db_path.write_bytes(reference_db.read_bytes())
    before = db_snapshot(db_path, "second")
    db = Database.open(db_path, create=False)
    try:
        first, second = find_run(db, "first").id, find_run(db, "second").id
        frozen = best(db, first)
        assert Coordinator(db, first, SerialExecutor(0.001), Progress(enabled=False)).run(extend_to=6) == "finished"
        assert Coordinator(db, second, SerialExecutor(0.001), Progress(enabled=False)).run(extend_to=3) == "finished"
        later = best(db, first)
    finally:
        db.dispose()
    assert frozen is not None and later is not None and later.player_id != frozen.player_id
    stored = json.loads(query(db_path, "SELECT config_json FROM runs WHERE id = ?", second)[0][0])
    assert stored["fitness"]["opponents"][1] == f"player:{frozen.player_id}"
    after = db_snapshot(db_path, "second")
    for table in ("fitness", "hall_games"):                 # (generation, index, ...) rows
        assert [row for row in after[table] if row[0] <= 2] == before[table], table
    assert max(row[0] for row in after["fitness"]) == 3


@pytest.mark.parametrize("opponent, words", [
    ("champion:nobody", "champion:nobody: no run named or numbered 'nobody'"),
    ("champion:99", "champion:99: no run named or numbered '99'"),
    ("player:999999", "'player:999999': no player with id 999999"),
    ("eps0.2:champion:empty", "eps0.2:champion:empty: run 'empty' has no best so far yet"),
])
def test_a_champion_that_is_not_there_is_one_line(two_runs, tmp_path, opponent, words):
    _, reference_db = two_runs
    db_path = tmp_path / "runs.db"
    db_path.write_bytes(reference_db.read_bytes())
    db = Database.open(db_path, create=False)
    try:
        create_run(db, load_config(write_config(tmp_path, "e.toml", **(FIRST | dict(name="empty")))))
        config = load_config(write_config(tmp_path, "t.toml", **(SECOND | dict(fitness__opponents=["wpc", opponent]))))
        with pytest.raises(ConfigError, match=r"^fitness[.]opponents: ") as caught:
            freeze_champions(db, config)
    finally:
        db.dispose()
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_stored_config_names_its_champion_frozen(tmp_path):
    config = load_config(write_config(tmp_path, **SECOND))          # a config file may say champion:RUN
    with pytest.raises(ConfigError, match=r"^fitness[.]opponents: 'champion:first': a stored run plays the champion "
                                          r"frozen"):
        config_from_json(config.to_json())


@pytest.mark.parametrize("fitness", [
    dict(fitness__opponents=["wpc", "eps0.1:eps0.2:champion:1"]),                 # one ε
    dict(fitness__opponents=["wpc", "player:0"]),
    dict(fitness__depth=0, fitness__openings=None, fitness__opponents=["champion:1"]),  # the fast loop's own only
])
def test_bad_database_opponents_are_one_line_in_the_config(tmp_path, fitness):
    with pytest.raises(ConfigError, match=r"^fitness[.]opponents: ") as caught:
        load_config(write_config(tmp_path, **(SECOND | fitness)))
    assert "\n" not in str(caught.value)


def test_a_champion_on_the_strength_panel_is_refused(tmp_path):
    """The panel check sees the frozen player's identity: another run's
    champion that is a panel player (here p_1_10's row) is refused as the
    player's own name is."""
    config = load_config(write_config(tmp_path, **(SECOND | dict(fitness__opponents=["wpc", "player:3"],
                                                                 yardstick__panel_games=20))))

    def rows(row: int) -> tuple[str, bytes | None]:
        return ("p_1_10", None) if row == 3 else ("wpc", None)
    with pytest.raises(ConfigError, match=r"^fitness[.]opponents: player:3 is on the strength panel"):
        check_panel_config(config, rows)
    check_panel_config(config)             # without the database: checked when the run is created
