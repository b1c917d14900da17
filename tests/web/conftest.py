"""Fixtures of the web tests: a real `genethello serve` subprocess on a free
loopback port, and a headless Debian chromium driven by Playwright.

The browser tests are skipped (with the reason) where Playwright or
/usr/bin/chromium is missing; `bash tests/install_system_packages.sh`
installs chromium. Playwright never downloads a browser of its own here.
Screenshots go to GENETHELLO_SCREENSHOTS (a folder) when set, else to the
test's temporary folder.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
#: A machine that plays fast (depth is set per test).
EXAMPLE_CHROMOSOME = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_status(port: int, path: str = "/api/status", host: str = "127.0.0.1") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers={"Host": f"{host}:{port}"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Server:
    """A `genethello serve` subprocess; ``url`` is its page."""

    def __init__(self, db: Path, *extra: str, env: dict | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        argv = [sys.executable, "-m", "genethello.cluster.cli.main", "serve", "--db", str(db),
                "--port", str(self.port), *extra]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True, env=env)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"genethello serve exited with {self.proc.returncode}: {self.proc.stdout.read()}")
            try:
                if get_status(self.port)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError("genethello serve did not answer within 30 s")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server without a run database (play and replay need none), with
    two search slots whatever the cores (a deep search in one tab leaves
    one for the other)."""
    srv = Server(tmp_path_factory.mktemp("serve") / "none.db", "--slots", "2")
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, through Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed (pip install -e '.[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: run bash tests/install_system_packages.sh as root")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser context and page (downloads allowed); page errors
    fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def shots(tmp_path):
    """Where screenshots go: GENETHELLO_SCREENSHOTS or the test's folder."""
    folder = Path(os.environ.get("GENETHELLO_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
