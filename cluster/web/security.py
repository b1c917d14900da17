"""Who may talk to the server: the Host check and the access token.

* Bound to loopback (the default), the server answers only requests whose
  ``Host`` is localhost or 127.0.0.1 (or [::1]): a page from another site
  that re-points its own name at 127.0.0.1 (DNS rebinding) gets 403.
* Bound elsewhere, it wants its token: accepted once as ``?token=``, then
  kept in an HttpOnly, SameSite=Strict cookie, Secure under TLS (the
  address bar loses it at once, by a redirect).

Every response also carries headers that keep the page to itself (no
framing, no sniffing, scripts from the server only).
"""

from __future__ import annotations

import hmac
import secrets
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, quote, urlencode

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_COOKIE = "genethello_token"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
LOOPBACK_BINDS = frozenset({"127.0.0.1", "localhost", "::1"})
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
]


def is_loopback(host: str) -> bool:
    """Whether a bind address is this machine only."""
    return host in LOOPBACK_BINDS or host.startswith("127.")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def host_name(header: str | None) -> str:
    """The name part of a Host header (port dropped, lower case); '' for a
    header with anything but a port after the name ('[::1]evil.com' names
    no loopback host)."""
    if not header:
        return ""
    header = header.strip().lower()
    if header.startswith("["):
        name, _, rest = header.partition("]")
        return name + "]" if _is_port_suffix(rest) else ""
    if header.count(":") == 1:
        name, _, port = header.partition(":")
        return name if _is_port_suffix(":" + port) else ""
    return header


def _is_port_suffix(text: str) -> bool:
    """Nothing, or ':' and a port number: what may follow a Host's name."""
    port = text[1:]
    return text == "" or (text.startswith(":") and port.isascii() and port.isdigit() and len(port) <= 5)


def host_allowed(header: str | None) -> bool:
    return host_name(header) in LOOPBACK_NAMES


def token_matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


class GuardMiddleware:
    """ASGI middleware in front of the app (see the module docstring).

    Args:
        app: the application.
        loopback: the server is bound to loopback (check Host).
        token: the access token when bound elsewhere, else None.
    """

    def __init__(self, app: ASGIApp, *, loopback: bool, token: str | None) -> None:
        self.app = app
        self.loopback = loopback
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if self.loopback and not host_allowed(headers.get("host")):
            await _plain(send, 403, f"Forbidden: this server answers to localhost and 127.0.0.1 only "
                                    f"(the request named host {headers.get('host', '')!r}).")
            return
        if self.token is not None:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            if "token" in query:
                if not token_matches(query["token"], self.token):
                    await _plain(send, 403, "Forbidden: wrong access token.")
                    return
                rest = urlencode({k: v for k, v in query.items() if k != "token"})
                # One leading slash: '//evil.com/' is another site to a browser.
                path = "/" + str(scope.get("path", "/")).lstrip("/\\")
                location = quote(path, safe="/") + (f"?{rest}" if rest else "")
                # Secure under TLS: the browser then never sends the token over plain HTTP.
                secure = "; Secure" if scope.get("scheme") == "https" else ""
                cookie = f"{TOKEN_COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/{secure}"
                await _plain(send, 303, "Signed in.", [(b"location", location.encode()),
                                                      (b"set-cookie", cookie.encode())])
                return
            jar = SimpleCookie()
            try:
                jar.load(headers.get("cookie", ""))
            except Exception:   # a malformed Cookie header is just no cookie
                jar = SimpleCookie()
            morsel = jar.get(TOKEN_COOKIE)
            if not token_matches(morsel.value if morsel else None, self.token):
                await _plain(send, 401, "This genethello server needs its access token: open the address "
                                        "it printed when it started (ending in ?token=...).")
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _plain(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(extra or []), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
