"""Hostile requests to `genethello serve` (issue 30 §5): each gets a 4xx
with one line naming what was wrong, never a 500."""

from __future__ import annotations

import pytest

from ..cluster.hostile_db import new_run
from .conftest import Server
from .test_api import api


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A server on a finished small run."""
    srv = Server(new_run(tmp_path_factory.mktemp("hostile-web")))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize(("path", "error"), [
    ("/api/runs/\u00b2", "run must be a non-negative whole number, got '²'"),
    ("/api/runs/1/games?generation=\u00b2", "generation must be a non-negative whole number, got '²'"),
    ("/api/runs/1/games/\u00b9\u00b2", "game must be a non-negative whole number, got '¹²'"),
    ("/api/runs/" + "9" * 30, "run must be a non-negative whole number, got '" + "9" * 30 + "'"),
])
def test_superscript_digits_and_huge_ids_in_a_path_are_a_400(served, path, error):
    from urllib.parse import quote

    status, answer = api(served, "GET", quote(path, safe="/?="))
    assert status == 400 and answer["error"] == error, (status, answer)


def test_a_deeply_nested_body_is_a_400(served):
    status, answer = api(served, "POST", "/api/chromosome", raw=b"[" * 8000 + b"]" * 8000)
    assert status == 400 and answer["error"] == "the request body is nested too deeply", (status, answer)


@pytest.mark.parametrize(("chromosome", "error"), [
    ("9" * 30, "no player with id " + "9" * 30 + " in /"),
    ("\u00b2", "unknown player '²': not a shipped network"),       # a name, not an id: no int() of it
])
def test_a_30_digit_or_superscript_chromosome_id_is_a_400(served, chromosome, error):
    status, answer = api(served, "POST", "/api/chromosome", {"chromosome": chromosome})
    assert status == 400 and error in answer["error"], (status, answer)


# --------------------------------------------------------------------------- #
# 7. Quietly wrong: the sign-in redirect, the Host check, serve's refusals


def asgi_get(app, path: str, query: bytes) -> tuple[int, dict[str, str]]:
    """One GET through the real ASGI app with ``path`` exactly as a client
    sent it (an HTTP client would read '//evil.com/' as a host): status and headers."""
    import asyncio

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "",
             "headers": [(b"host", b"192.0.2.7:8000")], "client": ("192.0.2.9", 5000), "server": ("192.0.2.7", 8000)}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}


def test_the_sign_in_redirect_stays_on_this_site(tmp_path):
    from genethello.cluster.web.app import create_app

    app = create_app(str(tmp_path / "none.db"), loopback=False, token="s3cret")
    for path, query, location in (("//evil.com/", b"token=s3cret", "/evil.com/"),
                                  ("///evil.com/", b"token=s3cret&x=1", "/evil.com/?x=1"),
                                  ("/\\evil.com/", b"token=s3cret", "/evil.com/"),
                                  ("/api/runs/1", b"token=s3cret", "/api/runs/1")):
        status, headers = asgi_get(app, path, query)
        assert status == 303 and headers["location"] == location, (path, headers)


@pytest.mark.parametrize("header", ["[::1]evil.com", "[::1]:80evil", "localhost:evil.com", "127.0.0.1:"
                                    "99999999"])
def test_a_host_with_more_than_a_port_after_a_loopback_name_is_refused(header):
    from genethello.cluster.web.security import host_allowed

    assert not host_allowed(header)
    assert host_allowed("[::1]:8000") and host_allowed("[::1]") and host_allowed("localhost:8000")


def serve_refusal(tmp_path, *args: str) -> str:
    import subprocess
    import sys

    from .conftest import free_port

    done = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "serve", "--db",
                           str(tmp_path / "none.db"), "--port", str(free_port()), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and "token=" not in done.stdout + done.stderr, lines   # no URL printed first
    return lines[0]


def test_serve_names_a_directory_given_as_a_certificate(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("x\n")
    assert serve_refusal(tmp_path, "--certfile", "/tmp", "--keyfile", str(key)) == (
        "genethello serve: error: --certfile /tmp: a directory, not a PEM file")


def test_serve_refuses_an_address_it_cannot_listen_on_before_printing_a_url(tmp_path):
    line = serve_refusal(tmp_path, "--host", "999.1.1.1")
    assert line.startswith("genethello serve: error: --host 999.1.1.1: not an address to listen on ("), line
    line = serve_refusal(tmp_path, "--host", "192.0.2.1")          # TEST-NET-1: no interface of ours
    assert line == ("genethello serve: error: --host 192.0.2.1 --port " + line.split("--port ")[1].split(":")[0]
                    + ": cannot listen there (Cannot assign requested address)"), line
