"""Networks through the real ``genethello`` command (child processes):
make one, show it, play it in ``match``, ``selfplay`` and ``gtp``, and
one-line refusals of files and names that are not networks."""

import json
import subprocess
import sys

import pytest

from genethello.core import Board, parse_square


def genethello(*args, stdin=None, timeout=120, cwd=None):
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, input=stdin, cwd=cwd)


@pytest.fixture(scope="module")
def network_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("networks") / "random.json"
    proc = genethello("network", "random", "--arch", "all-2", "--seed", 5, "--out", path)
    assert proc.returncode == 0, proc.stderr
    name = json.loads(path.read_text())["name"]
    assert proc.stdout.strip() == f"wrote {name} to {path}"
    return path


def test_network_show_names_architecture_and_digest(network_file):
    proc = genethello("network", "show", network_file)
    assert proc.returncode == 0, proc.stderr
    name = json.loads(network_file.read_text())["name"]
    assert f"name: {name}" in proc.stdout
    assert "architecture: all-2 (32 base tuples, 240 with their symmetric images, 288 weights a stage)" in proc.stdout
    assert "stages: 1 (the same weights all game)" in proc.stdout and "weights: 288\n" in proc.stdout
    assert "scale: normalized" in proc.stdout
    assert f"digest: {name.rsplit('_', 1)[1]}" in proc.stdout


def test_network_show_describes_stages_and_scale_with_one_weights_count():
    proc = genethello("network", "show", "pbt-td-searcher")
    assert proc.returncode == 0, proc.stderr
    assert "stages: 8, one set of weights each, by move number (discs - 4): 0-7, 8-14," in proc.stdout
    assert "scale: in discs of final margin for the side to move, 64 integer units a disc" in proc.stdout
    assert "weights: 20,088 in all (8 stages x 2,511)" in proc.stdout
    assert "of 20,088 not zero" in proc.stdout           # the count the not-zero figure is out of
    missed = genethello("network", "show", "pbt-td-search")
    assert missed.returncode == 2
    assert "unknown player 'pbt-td-search'; did you mean pbt-td-searcher?" in missed.stderr


def test_network_random_and_export_refuse_to_overwrite(network_file, tmp_path):
    copy = tmp_path / "copy.json"
    proc = genethello("network", "export", network_file, "--out", copy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(copy.read_text()) == json.loads(network_file.read_text())
    again = genethello("network", "random", "--arch", "all-2", "--seed", 5, "--out", copy)
    assert again.returncode != 0 and again.stderr.strip().splitlines() == [
        f"genethello network: error: {copy} exists: give --force to replace it"]


def test_match_plays_a_network_file_against_a_chromosome(network_file):
    proc = genethello("match", network_file, "p_1_10", "--depth", 2, "--games", 2, "--verbose")
    assert proc.returncode == 0, proc.stderr
    name = json.loads(network_file.read_text())["name"]
    assert f"A = {network_file} ({name})" in proc.stdout        # as typed, and what it names
    games = [line for line in proc.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 2
    for line in games:
        moves = line.split(": ")[1].split()[0]
        assert Board.from_moves(moves).is_game_over()


def test_selfplay_takes_networks(network_file):
    proc = genethello("selfplay", "--black", network_file, "--white", "p_1_10", "--depth", 1, "--games", 1)
    assert proc.returncode == 0, proc.stderr
    assert "black scored" in proc.stdout


def test_gtp_plays_a_network_file(network_file):
    proc = genethello("gtp", "--player", network_file, "--depth", 2, stdin="boardsize 8\ngenmove b\nquit\n")
    assert proc.returncode == 0, proc.stderr
    answers = [line for line in proc.stdout.splitlines() if line.startswith("=")]
    move = answers[1].split()[1]
    assert parse_square(move) in Board().legal_moves()


@pytest.mark.parametrize("args, message", [
    (("match", "all-2_0_aaaaaaaaaaaa", "p_1_10", "--depth", 1), "weights are not in its text"),
    (("gtp", "--player", "missing.json", "--depth", 1), "cannot read network file missing.json"),
    (("network", "show", "p_1_10"), "is a GeneThello chromosome, not a network"),
    (("match", "7", "p_1_10", "--depth", 1), "looks like a database id and there is no ./genethello.db here"),
])
def test_names_that_are_not_networks_are_one_line(args, message, tmp_path):
    proc = genethello(*args, cwd=tmp_path)
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr
