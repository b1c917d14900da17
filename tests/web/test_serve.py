"""`genethello serve` as a person starts it: the URLs it prints (the
machine's own addresses when bound to every interface, with a warning that
the token travels in plain HTTP), HTTPS with --certfile/--keyfile, one line
for a bad certificate, and --open handing the URL to a browser.

Servers here listen on loopback or on an ephemeral port, and every request
goes to 127.0.0.1.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from genethello.cluster.web.addresses import interface_addresses, reachable_hosts, url_host
from genethello.cluster.web.server import announce, page_urls

from .conftest import free_port

READY = "Ctrl-C stops"


class Started:
    """A `genethello serve` subprocess; ``lines`` collects what it prints."""

    def __init__(self, *args: str, env: dict | None = None) -> None:
        self.port = free_port()
        self.lines: list[str] = []
        argv = [sys.executable, "-m", "genethello.cluster.cli.main", "serve", "--port", str(self.port),
                "--slots", "1", *args]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True, env=env)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, within: float = 30) -> str:
        deadline = time.monotonic() + within
        while not any(text in line for line in self.lines):
            assert self.proc.poll() is None or self.reader.is_alive(), f"serve exited: {self.lines}"
            assert time.monotonic() < deadline, f"serve never printed {text!r}: {self.lines}"
            time.sleep(0.05)
        return "\n".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.reader.join(5)


@pytest.fixture
def certificate(tmp_path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def test_the_urls_for_each_kind_of_bind():
    assert page_urls("127.0.0.1", 8000, None, tls=False) == ["http://localhost:8000/"]
    assert page_urls("127.0.0.1", 8443, None, tls=True) == ["https://localhost:8443/"]
    assert page_urls("192.0.2.7", 80, "t", tls=False) == ["http://192.0.2.7:80/?token=t"]
    assert page_urls("0.0.0.0", 80, "t", tls=False) == [f"http://{h}:80/?token=t" for h in reachable_hosts("0.0.0.0")]
    assert url_host("fd00::2") == "[fd00::2]" and url_host("10.0.0.1") == "10.0.0.1"
    for host in reachable_hosts("::"):
        assert not host.startswith("127.") and host != "::1"
    text = announce(["http://a:1/?token=t", "http://b:1/?token=t"], db_target="x.db", patterns="v", token="t",
                    tls=False, wildcard=True)
    assert "open one of these URLs" in text and "plain HTTP" in text and "--certfile" in text
    assert "plain HTTP" not in announce(["https://a:1/?token=t"], db_target="x.db", patterns="v", token="t",
                                        tls=True, wildcard=False)


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ip") is None,
                    reason="needs Linux's ip command as the oracle")
def test_the_interface_addresses_are_those_ip_lists():
    listed = subprocess.run(["ip", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True,
                            check=True, timeout=30).stdout.split()
    globals_ = {"inet": set(), "inet6": set()}
    for kind, address in zip(listed, listed[1:]):
        if kind in globals_:
            globals_[kind].add(address.split("/")[0])
    ours4, ours6 = interface_addresses(socket.AF_INET), interface_addresses(socket.AF_INET6)
    # IPv4: each interface's primary address (a secondary one is not read)
    assert set(ours4) <= globals_["inet"] and bool(ours4) == bool(globals_["inet"])
    assert set(ours6) == globals_["inet6"]


def test_every_interface_lists_the_machines_addresses_and_warns(tmp_path):
    server = Started("--db", str(tmp_path / "none.db"), "--host", "0.0.0.0")
    try:
        text = server.wait_for(READY)
    finally:
        server.stop()
    hosts = reachable_hosts("0.0.0.0")
    for host in hosts:
        assert f"http://{host}:{server.port}/?token=" in text, text
    assert "://127.0.0.1" not in text and "://0.0.0.0" not in text, text
    assert "open" in text and "URL" in text
    assert "warning: plain HTTP" in text and "--certfile and --keyfile" in text, text
    if not hosts:
        assert "no address other machines can use" in text


def test_https_with_a_certificate(tmp_path, certificate):
    cert, key = certificate
    server = Started("--db", str(tmp_path / "none.db"), "--certfile", str(cert), "--keyfile", str(key))
    try:
        text = server.wait_for(READY)
        assert f"open this URL in a browser: https://localhost:{server.port}/" in text, text
        context = ssl.create_default_context(cafile=str(cert))
        deadline = time.monotonic() + 30
        while True:
            conn = http.client.HTTPSConnection("127.0.0.1", server.port, context=context, timeout=5)
            try:
                conn.request("GET", "/api/status", headers={"Host": f"localhost:{server.port}"})
                response = conn.getresponse()
                assert response.status == 200 and b'"slots"' in response.read()
                break
            except (ConnectionError, OSError):
                assert time.monotonic() < deadline, "no HTTPS answer within 30 s"
                time.sleep(0.1)
            finally:
                conn.close()
    finally:
        server.stop()


@pytest.mark.parametrize("which, expected", [
    ("missing key", "--certfile needs --keyfile too"),
    ("missing file", "no such file"),
    ("not PEM", "do not load as a PEM certificate and its matching private key"),
])
def test_a_bad_certificate_is_one_line(tmp_path, certificate, which, expected):
    cert, key = certificate
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    args = {"missing key": ["--certfile", str(cert)],
            "missing file": ["--certfile", str(tmp_path / "nope.pem"), "--keyfile", str(key)],
            "not PEM": ["--certfile", str(junk), "--keyfile", str(junk)]}[which]
    done = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "serve", "--db",
                           str(tmp_path / "none.db"), "--port", str(free_port()), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("genethello serve: error: ") and expected in lines[0], lines


def test_open_hands_the_url_to_the_browser(tmp_path):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    env = dict(os.environ, BROWSER=f"{sys.executable} {browser} %s")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    server = Started("--db", str(tmp_path / "none.db"), "--open", env=env)
    try:
        server.wait_for(READY)
        deadline = time.monotonic() + 30
        while not opened.exists() or not opened.read_text():
            assert time.monotonic() < deadline, f"no browser was started: {server.lines}"
            time.sleep(0.05)
        assert opened.read_text() == f"http://localhost:{server.port}/"
    finally:
        server.stop()


def test_help_says_it_prints_a_url_to_open():
    done = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "serve", "--help"],
                          capture_output=True, text=True, timeout=60)
    text = " ".join(done.stdout.split())
    assert "print the URL to open in a browser" in text
    for option in ("--certfile", "--keyfile", "--open"):
        assert option in text
