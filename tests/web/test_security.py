"""The Host check (DNS rebinding) and the access token, through the real
ASGI stack."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from genethello.cluster.web.app import create_app
from genethello.cluster.web.security import TOKEN_COOKIE, host_allowed, is_loopback


@pytest.mark.parametrize("header, allowed", [
    ("localhost:8000", True), ("127.0.0.1:8000", True), ("127.0.0.1", True), ("[::1]:8000", True),
    ("LOCALHOST", True), ("evil.example:8000", False), ("localhost.evil.example", False), ("", False), (None, False),
    ("127.0.0.1.nip.io", False),
])
def test_host_names_of_loopback(header, allowed):
    assert host_allowed(header) is allowed


def test_bind_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_loopback_refuses_other_host_names(tmp_path):
    with TestClient(create_app(str(tmp_path / "none.db")), base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/status").status_code == 200
        assert client.get("/api/status", headers={"host": "localhost:8000"}).status_code == 200
        refused = client.get("/", headers={"host": "rebound.example:8000"})
        assert refused.status_code == 403 and "localhost and 127.0.0.1" in refused.text
        assert refused.headers["x-frame-options"] == "DENY"


def test_elsewhere_the_token_is_taken_once_then_kept_in_a_strict_cookie(tmp_path):
    app = create_app(str(tmp_path / "none.db"), loopback=False, token="s3cret")
    with TestClient(app, base_url="http://192.0.2.7:8000") as client:
        assert client.get("/api/status").status_code == 401
        assert client.get("/?token=wrong").status_code == 403
        signed = client.get("/?token=s3cret&x=1", follow_redirects=False)
        assert signed.status_code == 303 and signed.headers["location"] == "/?x=1"
        cookie = signed.headers["set-cookie"]
        assert f"{TOKEN_COOKIE}=s3cret" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert "Secure" not in cookie     # plain HTTP: a Secure cookie would never come back
        assert client.get("/api/status").status_code == 200          # the cookie now
        client.cookies.clear()
        assert client.get("/api/status").status_code == 401
        # any Host is fine when bound elsewhere: the token guards it
        client.cookies.set(TOKEN_COOKIE, "s3cret")
        assert client.get("/api/status", headers={"host": "othello.lan"}).status_code == 200


def test_under_tls_the_token_cookie_is_secure(tmp_path):
    app = create_app(str(tmp_path / "none.db"), loopback=False, token="s3cret")
    with TestClient(app, base_url="https://192.0.2.7:8443") as client:
        signed = client.get("/?token=s3cret", follow_redirects=False)
        assert signed.status_code == 303
        assert signed.headers["set-cookie"].endswith("; Secure")
        assert client.get("/api/status").status_code == 200
