"""How every command names a player: one function, :func:`resolve_individual`.

A player named on a command line (or in the web's Play form) is, in this order:

1. a **database id** (digits), with ``--db``: that player of the run
   database, its text and stored payload (a network's weights) looked up by
   the cluster side (core has no database; the caller hands a lookup in);
2. a **path to a network file** the user typed (it contains ``/`` or ends in
   ``.json``; :mod:`genethello.core.families.network_files`);
3. a **shipped network**, by the stem of its file in the package's
   ``data/networks/`` (``NAME.json``) or by the network text that file holds;
4. a **network text** (``ARCH_BIRTH_DIGEST``) with ``--db``: its weights
   looked up in that database by the text;
5. otherwise an individual's text: a GeneThello chromosome
   (``TYPE_BIRTH_GENES``, e.g. ``p_1_10``). A network text without its
   weights is refused in one line that says where weights come from.

A name that is none of these is refused as an **unknown player** with the
closest known names (``pbt-td-search`` -> "did you mean pbt-td-searcher?"),
not with a chromosome's format error: a word without the ``_`` of
``TYPE_BIRTH_GENES`` was meant as a name. The CLI (``match``, ``gtp``,
``nboard``, ``selfplay``, ``compare``...) and the web's Play form all call
:func:`resolve_individual`, so all of them say the same.

Files are only ever read from paths the user typed: never from a path a
database names.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.network_files import read_network_file
from genethello.core.families.registry import Individual, family_of_text, parse_individual
from genethello.core.frontend.errors import UserError

__all__ = ["SHIPPED_DIR", "DatabaseLookup", "UnknownPlayerError", "closest_names", "looks_like_path",
           "resolve_individual", "shipped_network", "shipped_networks"]

#: Where the package keeps its shipped networks (one network file each).
SHIPPED_DIR = Path(__file__).resolve().parents[1] / "data" / "networks"  # core/data/networks

#: (database path or URL, player id or text) -> (text, payload or None).
DatabaseLookup = Callable[[str, "int | str"], "tuple[str, bytes | None]"]


def shipped_networks(folder: Path = SHIPPED_DIR) -> dict[str, Path]:
    """The shipped networks: file stem -> file, sorted by name (``folder``:
    the package's, or another for tests)."""
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.json"))}


def shipped_network(name: str, folder: Path = SHIPPED_DIR) -> NetworkIndividual | None:
    """The shipped network called ``name`` (its file's stem or the network
    text it holds), or None when none is.

    Raises:
        NetworkFileError: a shipped file that does not read (a broken install).
    """
    files = shipped_networks(folder)
    if name in files:
        return read_network_file(files[name])
    if family_of_text(name) is NETWORKS:
        for path in files.values():
            individual = read_network_file(path)
            if str(individual) == name:
                return individual
    return None


class UnknownPlayerError(UserError):
    """A name that no shipped network, file, chromosome or id is."""


def closest_names(spec: str, shipped: Path = SHIPPED_DIR, count: int = 3) -> list[str]:
    """The known names nearest ``spec`` (the shipped networks' names, by
    difflib's ratio), best first: what "did you mean" offers."""
    return difflib.get_close_matches(spec, list(shipped_networks(shipped)), n=count, cutoff=0.6)


def _unknown(spec: str, exc: ValueError, shipped: Path) -> ValueError:
    """The error for a ``spec`` nothing resolves: an unknown player with the
    closest names when it reads as a name (no ``_``: no chromosome's
    shape), else the parser's own error (a chromosome with a wrong gene),
    with the closest names where some are close."""
    close = closest_names(spec, shipped)
    guess = f"; did you mean {' or '.join(close)}?" if close else ""
    if "_" in spec:
        return type(exc)(f"{exc}{guess}") if close else exc
    known = ", ".join(shipped_networks(shipped)) or "none installed"
    return UnknownPlayerError(
        f"unknown player {spec!r}{guess}" if close else
        f"unknown player {spec!r}: not a shipped network ({known}), a network file (a path or NAME.json), "
        "a chromosome (TYPE_BIRTH_GENES, e.g. p_1_10) or a database id (with --db)")


def looks_like_path(spec: str) -> bool:
    """Whether ``spec`` names a file rather than a player: it holds a path
    separator or ends in ``.json`` (no individual's text does either)."""
    return "/" in spec or "\\" in spec or spec.endswith(".json")


def resolve_individual(spec: str, db: str | None = None, lookup: DatabaseLookup | None = None,
                       shipped: Path = SHIPPED_DIR) -> Individual:
    """The individual ``spec`` names (module docstring: id with ``db``,
    network file, shipped network, network text with ``db``, GeneThello text).

    Args:
        spec: what the user typed.
        db: the run database (``--db``), or None.
        lookup: the cluster side's database lookup (needed with ``db``).
        shipped: the folder of shipped networks (the package's).
    Raises:
        ValueError: one line naming ``spec`` and what is wrong (including
            NetworkFileError, ChromosomeError, NetworkError).
    """
    spec = spec.strip()
    if not spec:
        raise UserError("a player name is empty")
    if spec.isascii() and spec.isdigit():       # isdigit alone takes superscripts, which int() refuses
        if db is None:
            raise UserError(f"player {spec} looks like a database id: give --db")
        return _from_database(int(spec), db, lookup)
    if looks_like_path(spec):
        return read_network_file(spec)
    found = shipped_network(spec, shipped)
    if found is not None:
        return found
    if db is not None and family_of_text(spec) is NETWORKS:
        return _from_database(spec, db, lookup)
    try:
        return parse_individual(spec)
    except ValueError as exc:
        raise _unknown(spec, exc, shipped) from None


def _from_database(key: int | str, db: str, lookup: DatabaseLookup | None) -> Individual:
    if lookup is None:
        raise UserError("players from a database need genethello's cluster part "
                         "(run this through the genethello command)")
    text, payload = lookup(db, key)
    return parse_individual(text, payload)

