"""The web page: ``genethello serve``.

Registering is cheap: Starlette, uvicorn and the app are imported only when
the command runs.
"""

from __future__ import annotations

import argparse

from genethello.core.cli.arguments import add_patterns_option, check_range, positive_int

#: The run database ``serve`` reads by default (the run commands' default).
DEFAULT_DB = "genethello.db"


def port_number(text: str) -> int:
    """argparse type: a TCP port 1..65535."""
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port 1..65535, got {value}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="a web page to play the evolved players, replay games and watch runs",
                       description="Serve the web page and print the URL to open in a browser (with --open, "
                                   "open it too).")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE", help=f"run database to show (default: ./{DEFAULT_DB})")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind; any other asks for a token; 0.0.0.0 or :: listens on every interface "
                        "and prints this machine's addresses (default: 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000, metavar="PORT", help="port to listen on (default: 8000)")
    p.add_argument("--token", metavar="T",
                   help="access token when bound beyond loopback (default: a fresh one, printed)")
    p.add_argument("--certfile", metavar="FILE", help="PEM certificate: serve HTTPS (with --keyfile); without it, a "
                                                      "token sent beyond loopback travels in plain HTTP")
    p.add_argument("--keyfile", metavar="FILE", help="PEM private key of --certfile")
    p.add_argument("--open", action="store_true", dest="open_browser",
                   help="also open the URL in this machine's browser, when it has one")
    p.add_argument("--slots", type=positive_int, metavar="N",
                   help=f"searches at once, 1..{MAX_SLOTS} (default: one per core)")
    p.add_argument("--max-memory", type=positive_int, metavar="MB",
                   help="refuse a new game (HTTP 503) before the server's memory passes MB megabytes "
                        "(default: half this machine's memory, at most 8192)")
    add_patterns_option(p)
    p.set_defaults(handler=run_serve)


#: The most searches a server runs at once (each holds a thread and a search's tables).
MAX_SLOTS = 256


def run_serve(args: argparse.Namespace) -> int:
    from genethello.cluster.web.server import serve

    if args.slots is not None:
        check_range("--slots", args.slots, 1, MAX_SLOTS)
    if args.max_memory is not None:
        check_range("--max-memory", args.max_memory, 64, 1 << 30)
    return serve(args.db, host=args.host, port=args.port, token=args.token, slots=args.slots,
                 memory_bound=None if args.max_memory is None else args.max_memory << 20,
                 patterns=args.patterns, certfile=args.certfile, keyfile=args.keyfile,
                 open_browser=args.open_browser)
