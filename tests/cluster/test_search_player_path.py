"""The README's path through ``config/search-player.toml`` (issue 38),
shortened to well under a minute and run as a newcomer runs it: the
``evolve`` command the README's table gives, on a copy of the config made
tiny (4 members, 8 learning games each, 1 double game an opponent, the hall
every generation, 3 generations), then ``best``, ``status`` and
``history`` - each a real subprocess (Ray included), as written. (Stopping
and resuming are tested on their own: tests/cluster/test_cli_runs.py, and
``status`` of a stopped run in test_rating_anchor.py; here they would double
the Ray starts, the test's cost.) What they
print must name the one anchor (``Elo vs p_1_10 at depth 2``), and a measure
on it (a hall rating with its error), and no other name of the scale; the
match command ``best`` gives for a run without a yardstick measures the best
(cut to 2 games) and ends with a verdict.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from .conftest import _toml_value, run_cli

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "search-player.toml"
ANCHOR = "Elo vs p_1_10 at depth 2"
MEASURE = re.compile(r"hall [+-]\d+ ± \d+")
#: What a few minutes would run, in seconds: the shipped config's values cut down.
TINY = {("population", "size"): 4, ("breeding", "pbt-td", "learning_games"): 8,
        ("breeding", "pbt-td", "learning_batch"): 4, ("fitness", "games_per_opponent"): 1,
        ("fitness", "batch_games"): 4, ("hall", "games_per_member"): 4, ("hall", "every"): 1,
        ("stop", "max_generations"): 3}


def _tables(prefix: str, table: dict) -> list[str]:
    """``table`` as TOML: its values under ``[prefix]``, then its subtables."""
    lines = [f"[{prefix}]"] if prefix else []
    lines += [f"{k} = {_toml_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", *_tables(f"{prefix}.{key}" if prefix else key, value)]
    return lines


def tiny_copy(folder: Path) -> Path:
    """config/search-player.toml with the TINY values: the same kind of run
    (pbt-td on all-4+2x2-s8 at depth 2 against p_1_10 and fdmxcp_52), shorter."""
    config = tomllib.loads(CONFIG.read_text())
    for *sections, key in TINY:
        table = config
        for section in sections:
            table = table[section]
        assert key in table, f"config/search-player.toml has no {'.'.join((*sections, key))}"
        table[key] = TINY[(*sections, key)]
    path = folder / "search-player.toml"
    path.write_text("\n".join(_tables("", config)) + "\n")
    return path


def readme_evolve() -> list[str]:
    """The evolve command the README's configs table gives for the search player."""
    found = re.search(r"`(genethello evolve --config config/search-player\.toml[^`]*)`",
                      (REPO / "README.md").read_text())
    assert found, "README no longer shows how to breed the search player"
    return shlex.split(found.group(1))[1:]


@pytest.mark.timeout(240)
def test_the_readme_path_to_a_bred_search_player(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = tiny_copy(tmp_path)
    argv = [("--config" if a == "--config" else str(config) if a == "config/search-player.toml" else a)
            for a in readme_evolve()]
    db = tmp_path / argv[argv.index("--db") + 1]

    done = run_cli(*argv, home=home, cwd=tmp_path, timeout=180)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert "finished at generation 3" in last and ANCHOR in last and MEASURE.search(last), done.stdout
    assert ANCHOR in done.stderr        # the progress lines: each hall entry's best so far, on the same scale

    said = {}
    for command in ("best", "status", "history"):
        done = run_cli(command, "--db", str(db), home=home, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        said[command] = done.stdout
        assert ANCHOR in done.stdout, f"{command}:\n{done.stdout}"
        assert "generation 1's champion" not in done.stdout and "Elo against" not in done.stdout, done.stdout
    assert MEASURE.search(said["status"]), said["status"]
    assert re.search(r"^\s+\d+\s+[+-]\d+ ± \d+", said["best"], re.M), said["best"]
    assert re.search(r"^\s+3 \S+ .*[+-]\d+ ± \d+", said["history"], re.M), said["history"]

    # and its strength on a fixed scale: the command best names, cut to 2 games
    command = re.search(r"to measure the best on a fixed scale: (genethello match .*)$", said["best"], re.M)
    assert command and " p_1_10 --db " in command[1], said["best"]
    measured = run_cli(*shlex.split(command[1].replace("--games 400", "--games 2"))[1:], home=home, cwd=tmp_path)
    assert measured.returncode == 0, measured.stderr
    assert "A scores " in measured.stdout and "verdict: " in measured.stdout, measured.stdout
