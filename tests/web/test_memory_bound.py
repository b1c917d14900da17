"""A server with a memory bound (issue 37 §2): many parallel game creates
of the largest network (``patterns-v2-net``, about 400 MB a game) on
loopback; the server answers each with a game or one clear HTTP 503 line,
and its peak resident memory (the kernel's VmHWM) stays under the bound
given to ``serve --max-memory``. Bounded: 40 requests, 16 at a time, a
120 s timeout each; the server is stopped at the end."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import Server
from .test_api import HUMAN, api

BOUND_MB = 1600
CREATES = 40


def peak_mb(pid: int, field: str = "VmHWM") -> float:
    """The process's peak (or, with ``field="VmRSS"``, current) resident memory, MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field}")


@pytest.fixture
def bounded(tmp_path):
    srv = Server(tmp_path / "none.db", "--slots", "2", "--max-memory", str(BOUND_MB))
    try:
        yield srv
    finally:
        srv.stop()


def test_parallel_games_of_the_largest_network_stay_under_the_bound(bounded):
    machine = {"kind": "machine", "chromosome": "patterns-v2-net", "depth": 1}

    def create(_: int) -> tuple[int, dict]:
        return api(bounded, "POST", "/api/games", {"black": machine, "white": HUMAN, "seconds": None}, timeout=120)

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(create, range(CREATES)))
    made = [a for status, a in answers if status == 200]
    refused = [(status, a) for status, a in answers if status != 200]
    assert made, answers[:3]
    assert refused, f"{len(made)} games of about 400 MB each fit under {BOUND_MB} MB?"
    for status, answer in refused:
        assert status == 503 and answer["error"].startswith("the server is at its memory bound ("), answer
        assert "serve --max-memory" in answer["error"]
    assert peak_mb(bounded.proc.pid) < BOUND_MB
    # A closed game gives its memory back to the next one.
    status, _ = api(bounded, "POST", f"/api/games/{made[0]['id']}/close")
    assert status == 200


def test_games_of_one_network_share_its_evaluator_and_give_it_back(tmp_path):
    """One evaluator per network in the process (a pattern-table network's
    takes about 360 MB): a second game of it costs far less than the first,
    and closing the last game of it drops the evaluator."""
    srv = Server(tmp_path / "none.db", "--slots", "2", "--max-memory", "4000")
    try:
        machine = {"kind": "machine", "chromosome": "patterns-v2-net", "depth": 1}
        games = []
        resident = [peak_mb(srv.proc.pid, "VmRSS")]
        for _ in range(3):
            status, game = api(srv, "POST", "/api/games", {"black": machine, "white": HUMAN, "seconds": None},
                               timeout=120)
            assert status == 200, game
            games.append(game)
            resident.append(peak_mb(srv.proc.pid, "VmRSS"))
        first, later = resident[1] - resident[0], resident[3] - resident[1]
        assert later < first / 2, resident          # the first game built the evaluator, the others share it
        for game in games:
            assert api(srv, "POST", f"/api/games/{game['id']}/close")[0] == 200
    finally:
        srv.stop()
