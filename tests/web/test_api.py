"""The HTTP API of a real `genethello serve`: every bad request gets a 4xx
with a message (never a 500), abandoned searches stop within 0.2 s, and
engine work is capped at one search per slot with pondering dropped first."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

from .conftest import EXAMPLE_CHROMOSOME, Server

HUMAN = {"kind": "human"}


def machine(depth: int) -> dict:
    return {"kind": "machine", "chromosome": EXAMPLE_CHROMOSOME, "depth": depth}


def api(server: Server, method: str, path: str, body=None, raw: bytes | None = None,
        timeout: float = 60) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        conn.request(method, path, body=data, headers={"Host": f"127.0.0.1:{server.port}"})
        response = conn.getresponse()
        payload = response.read()
        assert response.getheader("content-type", "").startswith("application/json"), payload[:200]
        return response.status, json.loads(payload)
    finally:
        conn.close()


def new_game(server: Server, black: dict, white: dict, seconds=None) -> dict:
    status, game = api(server, "POST", "/api/games", {"black": black, "white": white, "seconds": seconds})
    assert status == 200, game
    return game


def wait_idle(server: Server, within: float) -> float:
    """Seconds until no search holds a slot (fails after ``within``)."""
    t0 = time.monotonic()
    while api(server, "GET", "/api/status")[1]["busy"]:
        assert time.monotonic() - t0 < within, "a search still holds its slot"
        time.sleep(0.01)
    return time.monotonic() - t0


class Background:
    """An API call on a thread (a long search), its answer kept."""

    def __init__(self, server: Server, path: str) -> None:
        self.answer = None
        self.thread = threading.Thread(target=self._run, args=(server, path), daemon=True)
        self.thread.start()

    def _run(self, server: Server, path: str) -> None:
        self.answer = api(server, "POST", path)
        self.returned = time.monotonic()


def test_bad_requests_get_a_message_and_a_4xx(server):
    status, answer = api(server, "POST", "/api/games", raw=b"{not json")
    assert status == 400 and "not valid JSON" in answer["error"]
    status, answer = api(server, "POST", "/api/games",
                         {"black": HUMAN, "white": dict(machine(3), chromosome="oe_fmc_1_14:49:3")})
    assert status == 400 and answer["field"] == "white.chromosome" and "needs 11 genes" in answer["error"]
    status, answer = api(server, "POST", "/api/chromosome", {"chromosome": "xx_1_2"})
    assert status == 400 and answer["field"] == "chromosome"
    game = new_game(server, HUMAN, machine(2))
    status, answer = api(server, "POST", f"/api/games/{game['id']}/move", {"move": "a1", "ply": 0})
    assert status == 400 and "legal: d3, c4, f5, e6" in answer["error"]
    status, answer = api(server, "POST", f"/api/games/{game['id']}/think")
    assert status == 409 and "person's turn" in answer["error"]
    status, answer = api(server, "POST", f"/api/games/{game['id']}/move", {"move": "d3", "ply": 5})
    assert status == 409 and "changed" in answer["error"]
    status, answer = api(server, "POST", f"/api/games/{game['id']}/move", {"move": "d3", "ply": 0})
    assert status == 200 and answer["board"]["to_move"] == "white"
    status, answer = api(server, "POST", f"/api/games/{game['id']}/move", {"move": "c3", "ply": 1})
    assert status == 409 and "machine's turn" in answer["error"]
    assert api(server, "GET", "/api/games/nope")[0] == 404
    assert api(server, "GET", "/api/runs/1")[0] == 404
    assert api(server, "GET", "/api/runs/x1")[0] == 400
    assert api(server, "POST", "/api/games/nope/think")[0] == 404
    api(server, "POST", f"/api/games/{game['id']}/close")


def test_uploads_are_bounded_and_parsed_by_the_projects_readers(server, data_dir):
    status, answer = api(server, "POST", "/api/replay?name=big.sgf", raw=b"(" * ((1 << 20) + 1))
    assert status == 413 and "1 MiB" in answer["error"]
    status, answer = api(server, "POST", "/api/replay?name=bad.sgf", raw=b"(;GM[2]FF[4]SZ[8];B[f5];W[zz])")
    assert status == 400 and "bad.sgf: line 1" in answer["error"] and "zz" in answer["error"]
    status, answer = api(server, "POST", "/api/replay?name=notes.txt", raw=b"f5d6")
    assert status == 400 and ".sgf and .ggf" in answer["error"]
    status, answer = api(server, "POST", "/api/replay?name=../../etc/passwd.sgf", raw=b"")
    assert status == 400 and "empty" in answer["error"]
    sample = data_dir / "formats" / "ggf" / "novello_TestGames.ggf"
    status, answer = api(server, "POST", "/api/replay?name=novello.ggf", raw=sample.read_bytes())
    assert status == 200 and answer["count"] >= 2
    first = answer["games"][0]
    assert first["frames"][0]["move"] is None and len(first["frames"]) > 1


def test_abandoned_searches_stop_within_a_fifth_of_a_second(server):
    # New game (the page closes the old one) while a long search runs: on a
    # clock of an hour a side the first move's budget is seconds, where a
    # depth-15 search from the start can end within 0.4 s on a quiet machine.
    game = new_game(server, machine(15), HUMAN, seconds=3600)
    think = Background(server, f"/api/games/{game['id']}/think")
    time.sleep(0.4)
    assert api(server, "GET", "/api/status")[1]["busy"] == 1
    t0 = time.monotonic()
    assert api(server, "POST", f"/api/games/{game['id']}/close")[0] == 200
    closed = time.monotonic() - t0
    think.thread.join(5)
    assert think.answer[0] == 409 and "abandoned" in think.answer[1]["error"]
    assert closed < 0.2, f"close took {closed:.3f} s"
    assert wait_idle(server, 0.2) < 0.2

    # Undo while the machine searches the reply.
    game = new_game(server, HUMAN, machine(15), seconds=3600)
    api(server, "POST", f"/api/games/{game['id']}/move", {"move": "f5", "ply": 0})
    think = Background(server, f"/api/games/{game['id']}/think")
    time.sleep(0.4)
    t0 = time.monotonic()
    status, undone = api(server, "POST", f"/api/games/{game['id']}/undo")
    assert time.monotonic() - t0 < 0.2 and status == 200
    assert undone["board"]["plies"] == 0 and undone["board"]["to_move"] == "black"
    think.thread.join(5)
    assert think.answer[0] == 409
    wait_idle(server, 0.2)

    # The tab goes away: the connection closes while the search runs.
    game = new_game(server, machine(15), HUMAN, seconds=3600)
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(f"POST /api/games/{game['id']}/think HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Content-Length: 0\r\n\r\n".encode())
    time.sleep(0.4)
    assert api(server, "GET", "/api/status")[1]["busy"] == 1
    sock.close()
    assert wait_idle(server, 0.3) < 0.3          # 0.05 s disconnect checks + the stop
    api(server, "POST", f"/api/games/{game['id']}/close")


def test_one_search_per_slot_pondering_first_then_429(tmp_path):
    srv = Server(tmp_path / "none.db", "--slots", "1")
    try:
        ponders = new_game(srv, HUMAN, machine(4))
        api(srv, "POST", f"/api/games/{ponders['id']}/move", {"move": "f5", "ply": 0})
        assert api(srv, "POST", f"/api/games/{ponders['id']}/think")[0] == 200
        assert api(srv, "GET", "/api/status")[1]["busy"] == 1            # pondering on the person's time
        other = new_game(srv, machine(2), HUMAN)
        status, moved = api(srv, "POST", f"/api/games/{other['id']}/think")
        assert status == 200 and moved["board"]["plies"] == 1           # the pondering gave way
        long = new_game(srv, machine(15), HUMAN, seconds=3600)     # a first move of seconds
        think = Background(srv, f"/api/games/{long['id']}/think")
        time.sleep(0.4)
        status, busy = api(srv, "POST", f"/api/games/{other['id']}/hint")
        assert status == 429 and "busy" in busy["error"]
        api(srv, "POST", f"/api/games/{long['id']}/close")
        think.thread.join(5)
        status, hint = api(srv, "POST", f"/api/games/{other['id']}/hint")
        assert status == 200 and hint["moves"] and hint["moves"][0]["score"] >= hint["moves"][-1]["score"]
    finally:
        srv.stop()


def test_a_sgf_download_and_a_timed_game(server):
    game = new_game(server, HUMAN, {"kind": "machine", "chromosome": EXAMPLE_CHROMOSOME}, seconds=5)
    assert game["clocks"]["running"] == "black" and game["clocks"]["black"] <= 5
    api(server, "POST", f"/api/games/{game['id']}/move", {"move": "f5", "ply": 0})
    status, after = api(server, "POST", f"/api/games/{game['id']}/think")
    assert status == 200 and after["clocks"]["white"] < 5 and after["clocks"]["running"] == "black"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/api/games/{game['id']}/sgf", headers={"Host": "localhost"})
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    assert response.status == 200 and "attachment" in response.getheader("content-disposition")
    assert "B[f5]" in text and f"W[{after['board']['last']}]" in text
    api(server, "POST", f"/api/games/{game['id']}/close")
