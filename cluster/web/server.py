"""Start the web server: bind, pick the guard, print the address, run uvicorn."""

from __future__ import annotations

import sys

from genethello.cluster.web.security import is_loopback, new_token


def serve(db_target: str, host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          slots: int | None = None, patterns: str | None = None) -> int:
    """Serve the page until Ctrl-C.

    Bound to loopback, no token is needed (the Host check guards it); bound
    elsewhere, ``token`` (or a fresh one) is required and printed with the
    address to open.
    """
    import uvicorn

    from genethello.cluster.web.app import create_app

    loopback = is_loopback(host)
    if loopback:
        token = None
    elif token is None:
        token = new_token()
    from genethello.core.pattern_table import resolve_version, shared_table

    patterns = resolve_version(patterns)                 # an unknown version fails here, in one line
    app = create_app(db_target, loopback=loopback, token=token, slots=slots, patterns=patterns)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{'localhost' if loopback else shown}:{port}/"
    if token is not None:
        address += f"?token={token}"
    print(f"genethello serve: open {address}  (database {db_target}; pattern table "
          f"{shared_table(patterns).version}; Ctrl-C stops)", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                            access_log=False)
    uvicorn.Server(config).run()
    return 0
