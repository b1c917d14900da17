"""The layer every front end shares (core/frontend), the typed argparse
numbers and the engine defaults every command shows."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from genethello.core.cli.arguments import non_negative_float, non_negative_int, positive_float, positive_int
from genethello.core.frontend import defaults
from genethello.core.frontend.wording import counted, duration

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("folder", ["core/nboard", "core/frontend", "cluster/web"])
def test_nboard_the_web_and_the_shared_layer_do_not_import_the_gtp_package(folder):
    for path in (ROOT / folder).rglob("*.py"):
        gtp = {m for m in imported_modules(path) if m.startswith("genethello.core.gtp")}
        assert not gtp, f"{path.relative_to(ROOT)} imports {gtp}"


def test_the_shared_layer_imports_no_protocol_and_no_command_line():
    for path in (ROOT / "core/frontend").glob("*.py"):
        for module in imported_modules(path):
            assert not module.startswith(("genethello.core.nboard", "genethello.core.cli", "genethello.cluster")), \
                f"{path.name} imports {module}"


@pytest.mark.parametrize("parse, text, value", [
    (positive_int, "1", 1), (positive_int, "007", 7), (non_negative_int, "0", 0),
    (positive_float, "0.5", 0.5), (positive_float, "inf", float("inf")), (non_negative_float, "0", 0.0),
])
def test_number_types_read_what_they_allow(parse, text, value):
    assert parse(text) == value and type(parse(text)) is type(value)


@pytest.mark.parametrize("parse, text, message", [
    (positive_int, "0", "must be an integer >= 1, got 0"),
    (positive_int, "1.5", "must be an integer >= 1, got '1.5'"),
    (non_negative_int, "-1", "must be an integer >= 0, got -1"),
    (positive_float, "0", "must be a number > 0, got 0"),
    (positive_float, "nan", "must be a number > 0, got nan"),
    (non_negative_float, "inf", "must be a finite number >= 0, got inf"),
    (non_negative_float, "x", "must be a finite number >= 0, got 'x'"),
])
def test_number_types_refuse_with_the_range_and_the_text(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=f"^{message}$"):
        parse(text)


def test_wording():
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [duration(s) for s in (0.004, 0.0512, 3.14159, 212.4)] == ["0.004 s", "0.0512 s", "3.14 s", "212 s"]


@pytest.mark.parametrize("command, shown", [
    ("selfplay", [f"(default: {defaults.EXACT_EMPTIES})", f"(default: {defaults.GAMES})",
                  f"(default: {defaults.RANDOM_PLIES})"]),
    ("match", [f"(default: {defaults.EXACT_EMPTIES})", f"(default: {defaults.GAMES})",
               f"(default: {defaults.RANDOM_PLIES})"]),
    ("gtp", [f"(default: {defaults.EXACT_EMPTIES})", f"(default: {defaults.TT_BITS})"]),
    ("nboard", [f"(default: {defaults.DEPTH})", f"(default: {defaults.EXACT_EMPTIES})",
                f"(default: {defaults.TT_BITS})"]),
])
def test_every_command_shows_the_shared_defaults(command, shown):
    proc = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", command, "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    for text in shown:
        assert text in flat, (text, proc.stdout)


def test_the_web_page_and_the_engines_start_from_the_same_defaults():
    import inspect

    from genethello.cluster.web import play
    from genethello.core.gtp.gtp_server import GtpFrontend
    from genethello.core.nboard.nboard_server import NBoardFrontend

    assert play.EXACT_EMPTIES == defaults.EXACT_EMPTIES
    gtp = inspect.signature(GtpFrontend).parameters
    nboard = inspect.signature(NBoardFrontend).parameters
    assert gtp["exact_empties"].default == nboard["exact_empties"].default == defaults.EXACT_EMPTIES
    assert gtp["tt_bits"].default == nboard["tt_bits"].default == defaults.TT_BITS
    assert nboard["depth"].default == defaults.DEPTH
    side = play.parse_side({"kind": "machine", "chromosome": "p_1_10"}, "black", timed=False)
    assert side.depth == defaults.DEPTH
