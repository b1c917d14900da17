"""Start the web server: bind, pick the guard, check the certificate, print
the addresses to open, run uvicorn."""

from __future__ import annotations

import socket
import ssl
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

from genethello.cluster.web.addresses import reachable_hosts, url_host
from genethello.cluster.web.security import is_loopback, new_token
from genethello.core.frontend.errors import UserError

if TYPE_CHECKING:
    import uvicorn

#: Seconds ``--open`` waits for the server to listen before it gives up.
OPEN_WAIT_SECONDS = 10.0


def check_tls(certfile: str | None, keyfile: str | None) -> bool:
    """Whether TLS is asked for; the certificate and key are loaded once
    here so that a missing or bad file is one line, not a traceback.

    Raises:
        ValueError: only one of the two given, or they do not load.
    """
    if certfile is None and keyfile is None:
        return False
    if certfile is None or keyfile is None:
        given, missing = ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        raise UserError(f"{given} needs {missing} too (HTTPS takes a certificate and its private key)")
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not Path(path).exists():
            raise UserError(f"{option} {path}: no such file")
        if not Path(path).is_file():
            what = "a directory" if Path(path).is_dir() else "a special file"
            raise UserError(f"{option} {path}: {what}, not a PEM file")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except ssl.SSLError as exc:
        raise UserError(f"--certfile {certfile} / --keyfile {keyfile} do not load as a PEM certificate and "
                         f"its matching private key ({exc.reason or 'unreadable'})") from None
    except OSError as exc:
        raise UserError(f"--certfile {certfile} / --keyfile {keyfile}: {exc.strerror or exc}") from None
    return True


def check_bind(host: str, port: int) -> None:
    """Refuse, before anything is printed, an address this machine cannot
    listen on (a name that does not resolve, another machine's address, a
    port in use): else a token URL would be printed for a server that never
    starts.

    Raises:
        ValueError: naming --host and --port and the system's reason.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise UserError(f"--host {host}: not an address to listen on ({reason})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            raise UserError(f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc})") from None


def page_urls(host: str, port: int, token: str | None, tls: bool) -> list[str]:
    """The addresses to open: ``localhost`` when bound to loopback, else
    those other machines can use (each of this machine's interface
    addresses when bound to a wildcard), with the token."""
    scheme = "https" if tls else "http"
    hosts = ["localhost"] if is_loopback(host) else reachable_hosts(host)
    query = f"?token={token}" if token is not None else ""
    return [f"{scheme}://{url_host(h)}:{port}/{query}" for h in hosts]


def announce(urls: list[str], *, db_target: str, patterns: str, token: str | None, tls: bool,
             wildcard: bool) -> str:
    """What ``serve`` prints when it starts (stderr)."""
    lines = []
    if not urls:
        lines.append("genethello serve: this machine has no address other machines can use; "
                     "bind a specific one with --host")
    elif len(urls) == 1:
        lines.append(f"genethello serve: open this URL in a browser: {urls[0]}")
    else:
        lines.append("genethello serve: open one of these URLs in a browser (this machine's addresses):")
        lines += [f"  {url}" for url in urls]
    if wildcard:
        lines.append("  (listening on every interface; on this machine itself, localhost works too)")
    if token is not None and not tls:
        lines.append("genethello serve: warning: plain HTTP: the access token and the page travel unencrypted, "
                     "readable by anyone on the network path; give --certfile and --keyfile to serve HTTPS")
    lines.append(f"genethello serve: database {db_target}; pattern table {patterns}; Ctrl-C stops")
    return "\n".join(lines)


def open_browser_when_up(server: uvicorn.Server, url: str) -> None:
    """Open ``url`` in the default browser once ``server`` listens (a
    thread); say so in one line when no browser is available."""
    def wait_and_open() -> None:
        deadline = time.monotonic() + OPEN_WAIT_SECONDS
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        if not server.started:
            return
        try:
            opened = webbrowser.open(url)
        except webbrowser.Error:
            opened = False
        if not opened:
            print("genethello serve: --open: no browser found here; open the URL above yourself",
                  file=sys.stderr, flush=True)

    threading.Thread(target=wait_and_open, name="open-browser", daemon=True).start()


def serve(db_target: str, host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          slots: int | None = None, patterns: str | None = None, certfile: str | None = None,
          keyfile: str | None = None, open_browser: bool = False, memory_bound: int | None = None) -> int:
    """Serve the page until Ctrl-C.

    Bound to loopback, no token is needed (the Host check guards it); bound
    elsewhere, ``token`` (or a fresh one) is required and printed with the
    addresses to open. With ``certfile`` and ``keyfile`` the page is served
    over HTTPS.

    Raises:
        ValueError: a bad certificate or key, or an unknown pattern table.
    """
    tls = check_tls(certfile, keyfile)
    check_bind(host, port)
    import uvicorn

    from genethello.cluster.web.app import create_app
    from genethello.core.evaluation.pattern_table import resolve_version, shared_table

    loopback = is_loopback(host)
    if loopback:
        token = None
    elif token is None:
        token = new_token()
    patterns = resolve_version(patterns)                 # an unknown version fails here, in one line
    app = create_app(db_target, loopback=loopback, token=token, slots=slots, patterns=patterns,
                     memory_bound=memory_bound)
    urls = page_urls(host, port, token, tls)
    print(announce(urls, db_target=db_target, patterns=shared_table(patterns).version, token=token, tls=tls,
                   wildcard=host in ("0.0.0.0", "::")), file=sys.stderr, flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                            access_log=False, ssl_certfile=certfile if tls else None,
                            ssl_keyfile=keyfile if tls else None)
    server = uvicorn.Server(config)
    if open_browser and urls:
        local = f"{'https' if tls else 'http'}://localhost:{port}/" + (f"?token={token}" if token else "")
        open_browser_when_up(server, local if host in ("0.0.0.0", "::") or loopback else urls[0])
    server.run()
    return 0
