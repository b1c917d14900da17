"""The networks shipped with the package: they load, resolve by name, and
play as their docs say (README's best network, docs/networks.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from genethello.core.families.individual_names import shipped_network, shipped_networks
from genethello.core.families.stage_smoothing import smoothed_stages
from genethello.core.play.network_league import league_score

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_shipped_network_loads_and_resolves_by_its_name_and_its_text():
    found = shipped_networks()
    assert {"all-2-league", "all-2-coevolved"} <= set(found)
    for stem in found:
        network = shipped_network(stem)
        assert network is not None and shipped_network(str(network)) == network


def test_the_readmes_best_network_is_shipped_and_beats_the_league_heuristic():
    line = next(line for line in README.read_text().split("\n\n") if "best network" in line)
    name = re.search(r"`(all-[^`]+)`", line).group(1)
    network = shipped_network(name)
    assert network is not None
    score = league_score(network.network, 2000, seed=5)       # 4,000 games at 1 ply, ε = 0.1
    assert score.interval[0] > 0.9, score


def test_the_readmes_strongest_player_is_named_and_plays_by_that_name():
    """README names the strongest player genethello has bred on a line with
    the words "strongest player", in backticks, so that `genethello gtp
    --player NAME` plays it at once: a real GTP session with that name
    answers genmove with a legal first move."""
    line = next(line for line in README.read_text().splitlines() if "strongest player" in line)
    name = re.search(r"`([^`]+)`", line).group(1)
    done = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", name,
                           "--depth", "2"], input="genmove black\nquit\n", capture_output=True, text=True,
                          timeout=120)
    answer = done.stdout.split("\n\n")[0].strip()
    assert done.returncode == 0 and answer.lower() in {"= d3", "= c4", "= f5", "= e6"}, (done.stdout, done.stderr)


def test_table_player_4_is_table_player_3_smoothed_at_sigma_3():
    """docs/networks.md's recipe: ``genethello network smooth table-player-3
    --sigma 3`` makes the shipped ``table-player-4``, weight for weight."""
    start, shipped = shipped_network("table-player-3"), shipped_network("table-player-4")
    made = smoothed_stages(start.network, 3.0)
    assert (shipped.type, shipped.birth) == (start.type, start.birth)
    assert made.digest() == shipped.digest and (made.int_weights == shipped.network.int_weights).all()
