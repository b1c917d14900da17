"""A server with a memory bound (issue 37 §2), on loopback: games of the
largest network (``patterns-v2-net``) share one evaluator (about 115 MB),
and many parallel creates are answered each with a game or one clear HTTP
503 line while the server's peak resident memory (the kernel's VmHWM)
stays under ``serve --max-memory``. Bounded: 40 requests, 16 at a time, a
120 s timeout each; the server is stopped at the end. (A manual run of
300 parallel creates under 1,600 MB: 11 games, 289 refusals, peak
1,457 MB, 24 s.)"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import Server
from .test_api import HUMAN, api

BOUND_MB = 1600
CREATES = 40
MACHINE = {"kind": "machine", "chromosome": "patterns-v2-net", "depth": 1}


def memory_mb(pid: int, field: str = "VmHWM") -> float:
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


def create(server: Server) -> tuple[int, dict]:
    return api(server, "POST", "/api/games", {"black": MACHINE, "white": HUMAN, "seconds": None}, timeout=120)


def test_games_share_the_evaluator_and_parallel_creates_stay_under_the_bound(bounded):
    resident = [memory_mb(bounded.proc.pid, "VmRSS")]
    games = []
    for _ in range(3):
        status, game = create(bounded)
        assert status == 200, game
        games.append(game)
        resident.append(memory_mb(bounded.proc.pid, "VmRSS"))
    first, later = resident[1] - resident[0], resident[3] - resident[1]
    assert later < first / 2, resident          # the first game built the evaluator, the others share it

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda _: create(bounded), range(CREATES)))
    refused = [(status, a) for status, a in answers if status != 200]
    assert refused, f"{CREATES} more games of patterns-v2-net fit under {BOUND_MB} MB?"
    for status, answer in refused:
        assert status == 503 and answer["error"].startswith("the server is at its memory bound ("), answer
        assert "serve --max-memory" in answer["error"]
    assert memory_mb(bounded.proc.pid) < BOUND_MB
    for game in games:                          # closed games give their memory back
        assert api(bounded, "POST", f"/api/games/{game['id']}/close")[0] == 200
