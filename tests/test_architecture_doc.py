"""docs/architecture.md names every module of core/ and cluster/ in the room
where it is: its "Which module does what" tables are compared with the tree,
so a module added, moved or removed without its row fails here, and every
folder says in its ``__init__`` what lives there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARCHITECTURE = REPO / "docs" / "architecture.md"
PACKAGES = ("core", "cluster")
SOURCE_SUFFIXES = (".py", ".pyx", ".pxd")
#: Folders that hold no modules of the program: data files, the web page's
#: static files, and Alembic's migration scripts (named in the db/ row).
NOT_ROOMS = ("core/data", "cluster/web/static", "cluster/db/migrations")


def modules_in_tree() -> set[str]:
    """Every module of core/ and cluster/ as 'folder/stem' ('core/engine/search'),
    __init__ files and the folders above aside."""
    found = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*"):
            relative = path.relative_to(REPO).as_posix()
            if (path.suffix not in SOURCE_SUFFIXES or path.stem == "__init__"
                    or relative.startswith(NOT_ROOMS) or "__pycache__" in relative):
                continue
            found.add(relative.rsplit(".", 1)[0])
    return found


def documented_modules() -> tuple[set[str], list[str]]:
    """The modules the doc's tables name, resolved against their section's
    folders, and a line for each name that resolves to no file."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    body = text[text.index("## Which module does what"):text.index("## Decisions apart from bookkeeping")]
    tree = modules_in_tree()
    named: set[str] = set()
    unresolved: list[str] = []
    folders: list[str] = []
    for line in body.splitlines():
        heading = re.match(r"^####\s+(.*)", line)
        if heading:
            folders = [f.rstrip("/") for f in re.findall(r"`([a-z_/]+/)`", heading.group(1))]
            continue
        if not folders or not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        for token in re.findall(r"`([^`]+)`", first_cell):
            stem = re.sub(r"\.(pyx|pxd|py)$", "", token)
            candidates = [f"{f}/{stem}" for f in folders] + [f"{f.rsplit('/', 1)[0]}/{stem}" for f in folders]
            hit = next((c for c in candidates if c in tree), None)
            if hit is None:
                unresolved.append(f"'{token}' under {', '.join(folders)} is no module")
            else:
                named.add(hit)
    return named, unresolved


def test_every_module_is_named_in_its_room_and_every_name_is_a_module():
    named, unresolved = documented_modules()
    missing = sorted(modules_in_tree() - named)
    assert missing == [], f"docs/architecture.md does not name: {missing}"
    assert unresolved == []


def test_the_check_sees_the_tables():
    # The comparison holds because the tables are read, not because none is:
    # a known module of each package resolves.
    named, _ = documented_modules()
    assert {"core/engine/search", "cluster/run/coordinator", "cluster/config", "core/gtp/gtp_server"} <= named


def test_every_folder_says_what_lives_there():
    silent = []
    for package in PACKAGES:
        for init in sorted((REPO / package).rglob("__init__.py")):
            relative = init.parent.relative_to(REPO).as_posix()
            if relative.startswith(NOT_ROOMS):
                continue
            docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            if not docstring or len(docstring.split()) < 12:
                silent.append(relative)
    assert silent == [], f"these folders' __init__.py say nothing of what lives there: {silent}"
