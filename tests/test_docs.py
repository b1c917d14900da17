"""The documentation cannot drift from the program.

Every ``genethello ...`` command that README.md and docs/*.md show is checked
against the real command-line parser (the one ``genethello`` builds, parsed
without running anything): a concrete command must parse as written; a
synopsis (``[--top N] [--by hall|elo|yardstick]``) may name only options the
command has, must list every choice of an option it spells out, and must show
the options the command requires. The README's opening is the two commands a
fresh machine runs (the second exactly what CI runs), and the path a newcomer
follows — the first command's evolution, then every command of "What to type
next", as written — is run in order, in a fresh folder, by real processes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from genethello.cluster.cli.main import COMMANDS, build_parser

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = sorted([README, *(REPO / "docs").glob("*.md")])
SHELL_LANGS = ("", "sh", "bash", "console", "shell")
SYNOPSIS_MARKS = ("[", "]", "|", "(", ")", "...", "…")


@dataclass(frozen=True)
class Shown:
    """A ``genethello`` command line as a doc shows it."""

    doc: str
    text: str
    in_block: bool

    @property
    def synopsis(self) -> bool:
        return any(mark in self.text for mark in SYNOPSIS_MARKS)

    def __str__(self) -> str:
        return f"{self.doc}: {self.text}"


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block."""
    return [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.S | re.M)]


def without_blocks(text: str) -> str:
    return re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)


def is_command(text: str) -> bool:
    """A command line, not output that starts with the program's name
    (``genethello serve: open ...``), a placeholder (``genethello COMMAND``)
    or the program's own ``--help``."""
    words = text.split()
    return (len(words) >= 2 and words[0] == "genethello" and not words[1].endswith(":")
            and not words[1].isupper() and not words[1].startswith("-"))


def strip_comment(line: str) -> str:
    """The line without a trailing shell comment (``  # ...``)."""
    return re.split(r"\s+#\s", line, maxsplit=1)[0].strip()


def block_commands(body: str) -> list[str]:
    """The ``genethello`` commands of a shell block: continuation lines
    joined, comments dropped, each part of an ``&&`` chain on its own."""
    commands = []
    for line in body.replace("\\\n", " ").splitlines():
        line = strip_comment(line.removeprefix("$ "))
        for part in line.split("&&"):
            part = " ".join(part.split())
            if is_command(part):
                commands.append(part)
    return commands


def shown_commands() -> list[Shown]:
    """Every ``genethello`` command in the docs' shell blocks and inline code."""
    found = []
    for path in DOCS:
        text = path.read_text()
        doc = str(path.relative_to(REPO))
        for lang, body in code_blocks(text):
            if lang in SHELL_LANGS:
                found += [Shown(doc, c, True) for c in block_commands(body)]
        for span in re.findall(r"`([^`]+)`", without_blocks(text)):
            span = " ".join(span.split())
            if is_command(span):
                found.append(Shown(doc, span, False))
    return found


SHOWN = shown_commands()


def words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:          # an inline fragment with one quote of a pair
        return text.split()


def subparser(argv: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The innermost parser the words name (``patterns label``: label's), and
    the words after the command names."""
    parser = build_parser(argv[1])
    rest = argv[1:]
    while rest:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            break
        name = rest[0].strip("[]()")
        choices = subs[0].choices
        if name not in choices:
            if "|" in name:       # `patterns learn|evaluate|show`: each must be there
                missing = [n for n in name.split("|") if n not in choices]
                assert not missing, f"no sub-command {missing} (has {sorted(choices)})"
                return choices[name.split("|")[0]], rest[1:]
            break
        parser, rest = choices[name], rest[1:]
    return parser, rest


def options_of(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {s: a for a in parser._actions for s in a.option_strings}


def check_against_parser(shown: Shown) -> None:
    """Options that exist by their full names, choices spelled in full,
    required options shown (in a block's synopsis)."""
    argv = words(shown.text)
    assert argv[1] in COMMANDS, f"{shown}: no command {argv[1]!r}"
    parser, rest = subparser(argv)
    if "--" in rest:              # the metamachine's oracle command follows
        rest = rest[:rest.index("--")]
    known = options_of(parser)
    named = set()
    for i, word in enumerate(rest):
        word = word.strip("[]()")
        if not word.startswith("--"):
            continue
        option = word.split("=", 1)[0]
        assert option in known, f"{shown}: {argv[1]} has no option {option} (it has {sorted(known)})"
        named.add(option)
        action = known[option]
        value = word.split("=", 1)[1] if "=" in word else (rest[i + 1].strip("[]()") if i + 1 < len(rest) else "")
        if action.choices is not None and "|" in value:
            listed = value.split("|")
            expected = [str(c) for c in action.choices]
            assert sorted(listed) == sorted(expected), f"{shown}: {option} lists {listed}, the parser has {expected}"
    if shown.synopsis and shown.in_block:
        for action in parser._actions:
            if action.required and action.option_strings:
                assert set(action.option_strings) & named, f"{shown}: the required {action.option_strings[0]} " \
                                                           "is not shown"


@pytest.mark.parametrize("shown", SHOWN, ids=str)
def test_every_command_the_docs_show_matches_the_parser(shown):
    check_against_parser(shown)


@pytest.mark.parametrize("shown", [s for s in SHOWN if s.in_block and not s.synopsis], ids=str)
def test_every_concrete_command_parses_as_written(shown):
    argv = words(shown.text)[1:]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = build_parser(argv[0]).parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"{shown}: argparse refused it (exit {exc.code}): {err.getvalue().strip()}")
    assert callable(args.handler)


def test_the_docs_show_commands_of_both_kinds():
    """The extraction above finds what it should (a test that checks nothing
    would pass silently)."""
    texts = {s.text for s in SHOWN}
    assert "genethello status" in texts
    assert any(s.synopsis and s.text.startswith("genethello best ") for s in SHOWN)
    assert any(s.text.startswith("genethello patterns label --games") and not s.synopsis for s in SHOWN)
    assert len({s.doc for s in SHOWN}) >= 5


def test_a_synopsis_that_omits_a_choice_is_caught():
    with pytest.raises(AssertionError, match="hall"):
        check_against_parser(Shown("x", "genethello best [--top N] [--by elo|yardstick] [--json]", True))
    with pytest.raises(AssertionError, match="no option --colour"):
        check_against_parser(Shown("x", "genethello best --colour", False))
    with pytest.raises(AssertionError, match="required --out"):
        check_against_parser(Shown("x", "genethello plot [--db FILE]", True))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_python_examples_run(doc):
    for lang, body in code_blocks(doc.read_text()):
        if lang == "python":
            r = subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, f"{doc.name}: {r.stderr}"


BENCH_LINE = re.compile(r"^python3? (benchmarks/\S+\.py)(.*)$")


def test_benchmark_commands_name_real_scripts_and_options():
    seen = 0
    for doc in DOCS:
        for _lang, body in code_blocks(doc.read_text()):
            for line in body.splitlines():
                m = BENCH_LINE.match(strip_comment(line))
                if not m:
                    continue
                script = REPO / m.group(1)
                assert script.is_file(), f"{doc.name}: {m.group(1)} does not exist"
                source = script.read_text()
                for option in re.findall(r"--[a-z][a-z0-9-]*", m.group(2)):
                    assert f'"{option}"' in source, f"{doc.name}: {m.group(1)} has no option {option}"
                seen += 1
    assert seen >= 10


MEASURED_OPTIONS = ("--exact", "--games", "--random-plies", "--seed")


def measured_commands() -> list[Shown]:
    """The ``match``/``selfplay`` commands of shell blocks that are followed
    by their output (an indented line): commands shown with a measured
    result."""
    found = []
    for path in DOCS:
        for lang, body in code_blocks(path.read_text()):
            if lang not in SHELL_LANGS:
                continue
            lines = body.splitlines()
            for line, after in zip(lines, lines[1:]):
                if re.match(r"genethello (match|selfplay) ", line) and after.startswith((" ", "\t")):
                    found.append(Shown(str(path.relative_to(REPO)), strip_comment(line), True))
    return found


def test_measured_commands_spell_out_what_they_were_measured_with():
    """A result printed beside its command holds only if the command still
    plays the same games when the defaults change (issue 23): every option
    that decides the games is written out."""
    measured = measured_commands()
    assert len(measured) >= 5
    for shown in measured:
        missing = [o for o in MEASURED_OPTIONS if o not in words(shown.text)]
        assert not missing, f"{shown}: measured without spelling out {missing}"


def test_every_screenshot_is_shown():
    pictures = {p.name for p in (REPO / "docs").glob("*.png")}
    linked = {Path(target).name for doc in DOCS for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+\.png)\)",
                                                                          doc.read_text())}
    assert pictures and pictures <= linked, f"not shown in any doc: {sorted(pictures - linked)}"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_resolve_and_every_doc_is_linked_from_the_readme():
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            assert file.exists(), f"{doc.name}: link to {target} names no file"
            if anchor and file.suffix == ".md":
                anchors = {slug(h) for h in re.findall(r"^#+ (.*)$", file.read_text(), re.M)}
                assert anchor in anchors, f"{doc.name}: no heading #{anchor} in {path}"
    linked = set(re.findall(r"\]\((docs/[^)#]+\.md)", README.read_text()))
    assert linked == {str(p.relative_to(REPO)) for p in DOCS if p != README}


def test_docs_point_at_the_data_the_repository_carries():
    for doc in DOCS:
        assert "shared/data/formats" not in doc.read_text(), doc.name


def test_the_readme_stays_a_users_page():
    """About 200 lines (issue 23): the experiments and the floor plan live in
    docs/. (230 since issue 31: what the two first commands install and cost,
    and the vocabulary's exceptions, belong on the first page; 234 since
    issue 29: the strongest player, by name, and the config that breeds a
    search player; 240 since issue 38: match's verdict and defaults, the files beside
    a database; the panel command (issue 36).)"""
    assert len(README.read_text().splitlines()) <= 241


def test_the_readme_opens_with_the_two_commands_ci_runs_the_second():
    blocks = code_blocks(README.read_text())
    first, second = blocks[0][1].strip(), blocks[1][1].strip()
    assert README.read_text().startswith("# genethello\n\n```\n")
    assert "\n" not in first and "\n" not in second
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    # A stock Debian or Ubuntu python3 refuses a system-wide pip install
    # (externally-managed-environment): both lines make and use a venv,
    # and keep pip's output short.
    assert first.startswith(venv + "pip install -q -e . && genethello evolve --config config/")
    assert second.startswith("bash tests/install_system_packages.sh && " + venv + "pip install -q -e \".[test]\" && ")
    assert "python3 -m pip" not in first + second
    ci = (REPO / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert second == ci


# -- the newcomer's path --------------------------------------------------------------------------------

def next_commands() -> list[str]:
    """The commands of the README's "What to type next" block, in order."""
    text = README.read_text()
    section = text.split("## What to type next", 1)[1]
    return block_commands(code_blocks(section)[0][1])


def small_quick_config(folder: Path) -> Path:
    """config/quick.toml with fewer and shallower games: the same name and
    generations (the commands that follow name them), a CI-sized cost."""
    text = (REPO / "config" / "quick.toml").read_text()
    changes = [(r"^size = \d+", "size = 6"), (r"^(\[games\]\ndepth = )\d+", r"\g<1>2"),
               (r"^games_per_member = \d+", "games_per_member = 10"),
               (r"^games_per_opponent = \d+", "games_per_opponent = 10"),
               (r"^league_double_games = \d+", "league_double_games = 10")]
    for pattern, replacement in changes:
        text, n = re.subn(pattern, replacement, text, flags=re.M)
        assert n == 1, pattern
    path = folder / "config" / "quick.toml"
    path.parent.mkdir()
    path.write_text(text)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def genethello() -> list[str]:
    """The installed ``genethello`` script, as a user types it (beside this
    interpreter, or on PATH: pip puts it in either); else the same entry
    point through ``-m``."""
    beside = Path(sys.executable).with_name("genethello")
    found = str(beside) if beside.exists() else shutil.which("genethello")
    return [found] if found else [sys.executable, "-m", "genethello.cluster.cli.main"]


def run(line: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    argv = [*genethello(), *shlex.split(line)[1:]]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def serve_answers(line: str, cwd: Path) -> str:
    """Start the web page as written (on a free port: 8000 may be taken on a
    shared machine), open the address it prints, stop it; the page's HTML."""
    argv = [*genethello(), *shlex.split(line)[1:], "--port", str(free_port())]
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first: list[str] = []
        reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(60)
        assert first and first[0].startswith("genethello serve: open this URL in a browser: http://"), \
            f"serve printed {first!r}"     # what the README and docs/web.md quote
        url = re.search(r"http://\S+", first[0]).group(0)
        for _ in range(600):      # until uvicorn listens (it starts after the line), at most a minute
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    return response.read().decode()
            except OSError:
                assert proc.poll() is None, "serve ended"
                threading.Event().wait(0.1)
        pytest.fail(f"nothing answered at {url}")
    finally:
        proc.terminate()
        proc.wait(30)


EXPECTED = {           # what each follow-up command's output must show
    "status": "quick", "best": "W/D/L", "history": "yardstick, pooled", "plot": "wrote",
    "export": "wrote", "replay": "Result:", "match": "openings with both colours", "runs": "quick",
}


@pytest.mark.timeout(600)
def test_the_readme_path_works_as_written(tmp_path):
    first = code_blocks(README.read_text())[0][1]
    evolve = next(c for c in block_commands(first) if c.startswith("genethello evolve"))
    assert "--config config/quick.toml" in evolve
    small_quick_config(tmp_path)
    r = run(evolve, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "run quick: finished at generation 10" in r.stdout
    assert (tmp_path / "genethello.db").is_file()

    commands = next_commands()
    assert len(commands) >= 5 and any(c.startswith("genethello serve") for c in commands)
    for line in commands:
        name = shlex.split(line)[1]
        if name == "serve":
            assert "<title>" in serve_answers(line, tmp_path)
            continue
        r = run(line, tmp_path)
        assert r.returncode == 0, f"{line}: {r.stderr}"
        assert EXPECTED[name] in r.stdout, f"{line} printed {r.stdout!r}"
        assert "Traceback" not in r.stderr
    png = next(tmp_path.glob("*.png"))
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_missing_database_says_what_to_type(tmp_path):
    (tmp_path / "quick.db").write_bytes(b"")
    r = run("genethello best", tmp_path, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("genethello best: error: no database at ./genethello.db: pass --db FILE "
                        "(database files here: quick.db)\n")
    (tmp_path / "quick.db").unlink()
    r = run("genethello history", tmp_path, timeout=60)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["genethello history: error: no database at ./genethello.db: pass --db FILE "
                                     "(no database files here; 'genethello evolve --config FILE' starts a run in one)"]


# -- one vocabulary across commands -----------------------------------------------------------------------

def every_parser() -> list[tuple[str, argparse.ArgumentParser]]:
    """(command, parser) of every command, sub-commands by their full name
    ('patterns label')."""
    found = []
    for name in COMMANDS:
        parser, _ = subparser(["genethello", name])
        inner = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if inner:
            found += [(f"{name} {sub}", p) for sub, p in inner[0].choices.items()]
        else:
            found.append((name, parser))
    return found


def shown_options() -> dict[str, dict[str, argparse.Action]]:
    """option -> {command: its action}, for the options ``--help`` shows
    (a hidden old name is not part of the vocabulary)."""
    options: dict[str, dict[str, argparse.Action]] = {}
    for command, parser in every_parser():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            for option in action.option_strings:
                if option.startswith("--"):
                    options.setdefault(option, {})[command] = action
    return options


def metavar(action: argparse.Action) -> str | None:
    """What ``--help`` shows after the option (None for a flag)."""
    if action.nargs == 0:
        return None
    shown = action.metavar if action.metavar is not None else action.dest.upper()
    return " ".join(shown) if isinstance(shown, tuple) else shown


def stated_default(action: argparse.Action) -> object:
    """The default an action applies (None where the command decides)."""
    default = action.default
    unset = default is None or default is False or default == [] or default == argparse.SUPPRESS
    return None if unset else default


#: The vocabulary: an option means one thing and is shown one way on every
#: command. Its first command here sets the norm; the others must agree in
#: metavar and default, or be listed in VOCABULARY_EXCEPTIONS with a reason.
VOCABULARY_NORMS = {
    "--db": "evolve", "--run": "status", "--address": "evolve", "--workers": "evolve", "--depth": "match",
    "--time": "match", "--exact": "match", "--games": "match", "--seed": "match", "--random-plies": "match",
    "--gtp": "match", "--player": "gtp", "--patterns": "match", "--tt-bits": "gtp", "--out": "compare",
    "--top": "best", "--holdout": "patterns learn", "--limit": "patterns learn", "--table": "patterns evaluate",
    "--game": "replay", "--openings": "compare",
}

#: (option, command) -> why it differs from the norm, in one line each.
VOCABULARY_EXCEPTIONS = {
    ("--db", "compare"): "several databases, one --db each, at least one: no default",
    ("--db", "selfplay"): "an engine command reads a database only for a player given by id (./genethello.db then)",
    ("--db", "match"): "an engine command reads a database only for a player given by id (./genethello.db then)",
    ("--db", "panel"): "as match: a database only for a player given by id (./genethello.db then)",
    ("--depth", "panel"): "4, the depth the panel's anchored ratings were measured at (as issue 36 measures)",
    ("--exact", "panel"): "8, the exact-endgame limit the panel's anchored ratings were measured at",
    ("--games", "panel"): "games against each panel member, which has no single total",
    ("--db", "gtp"): "an engine command reads a database only for a player given by id (./genethello.db then)",
    ("--db", "nboard"): "an engine command reads a database only for a player given by id (./genethello.db then)",
    ("--db", "network show"): "reads a database only for a network given by id or text",
    ("--db", "network export"): "reads a database only for a network given by id or text",
    ("--db", "network smooth"): "reads a database only for a network given by id or text",
    ("--workers", "metamachine"): "extra oracle processes beside the main one: 0, none, is the default",
    ("--workers", "patterns evaluate"): "local solver processes, not Ray workers: one unless asked",
    ("--depth", "nboard"): "the NBoard GUI sets the depth itself ('set depth'); 8 until it does",
    ("--exact", "compare"): "unset, every run's player keeps its run's games.exact_empties",
    ("--games", "compare"): "games per pair of players of a round robin, which has no single total",
    ("--games", "patterns learn"): "a file of games to learn from, not a count",
    ("--games", "patterns evaluate"): "a file of games to evaluate on, not a count",
    ("--games", "patterns label"): "a file of games to label positions of, not a count",
    ("--seed", "compare"): "1, the seed its published comparisons (docs/experiments.md) were drawn with",
    ("--seed", "patterns label"): "1, the seed of the labels that patterns-v2 was fitted on (docs/patterns.md)",
    ("--seed", "network random"): "required: a network's weights are named by their seed",
    ("--tt-bits", "solve"): "22: a solve fills a larger table than an engine's 20 bits",
    ("--out", "export"): "a folder: one file a game or a generation",
    ("--top", "compare"): "champions per run (default 1): a run's hall is ranked, its top N enter",
    ("--top", "metamachine"): "candidate moves per genmove (default 3)",
    ("--game", "export"): "a game's database id, not its place in a file: no default",
}


def test_one_option_name_has_one_metavar_and_one_default_everywhere():
    options = shown_options()
    problems = []
    for option, norm_command in VOCABULARY_NORMS.items():
        commands = options[option]
        norm = commands[norm_command]
        for command, action in commands.items():
            if (option, command) in VOCABULARY_EXCEPTIONS:
                continue
            if metavar(action) != metavar(norm) or stated_default(action) != stated_default(norm):
                problems.append(f"{command} {option} {metavar(action)} (default {stated_default(action)!r}) "
                                f"differs from {norm_command}'s {metavar(norm)} (default {stated_default(norm)!r})")
    assert not problems, "\n".join(problems)
    assert len([o for o in VOCABULARY_NORMS if len(options[o]) > 1]) >= 15     # the check has something to check
    stale = [key for key in VOCABULARY_EXCEPTIONS if key[1] not in options.get(key[0], {})]
    assert not stale, f"exceptions for options that are gone: {stale}"
    unlisted = [o for o, c in options.items() if len(c) > 1 and o not in VOCABULARY_NORMS
                and {metavar(a) for a in c.values()} != {None}]
    assert not unlisted, f"options of several commands without a norm: {unlisted}"


def test_every_default_is_shown_in_one_style():
    """'(default: X)' everywhere (or '(default with --games: X)'), never
    'default X' or '(default 100)'; an option that applies a default says
    which."""
    problems = []
    for command, parser in every_parser():
        for action in parser._actions:
            if not action.option_strings or action.help in (None, argparse.SUPPRESS) \
                    or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                if action.option_strings and action.help is None:
                    problems.append(f"{command} {action.option_strings[-1]}: no help")
                continue
            name = action.option_strings[-1]
            for m in re.finditer(r"\bdefault\b", action.help):
                if not re.match(r"\(default( with [^:()]+)?: ", action.help[m.start() - 1:]):
                    problems.append(f"{command} {name}: {action.help!r}")
            if stated_default(action) is not None and "(default" not in action.help:
                problems.append(f"{command} {name}: default {action.default!r} not shown")
    assert not problems, "\n".join(problems)


def test_the_old_spellings_still_work():
    """Options renamed for the vocabulary keep their old names, hidden."""
    for argv, dest, value in (
            (["evolve", "--config", "x.toml", "--gtp-engine", "gtp-rhino -l 1"], "gtp_engine", ["gtp-rhino -l 1"]),
            (["resume", "--gtp-engine", "e1", "--gtp", "e2"], "gtp_engine", ["e1", "e2"]),
            (["lineage", "--depth", "2"], "depth", 2)):
        assert getattr(build_parser(argv[0]).parse_args(argv), dest) == value, argv


def test_version():
    r = subprocess.run([*genethello(), "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and re.fullmatch(r"genethello \d+\.\d+\.\d+\S*\n", r.stdout), r.stdout


def test_the_readme_lists_every_command():
    listed = {shlex.split(line)[1] for line in block_commands(README.read_text().split("## All commands", 1)[1])}
    assert listed == set(COMMANDS), f"missing from 'All commands': {sorted(set(COMMANDS) - listed)}"


def test_the_readmes_engine_defaults_are_the_programs():
    """The README states the engine defaults once (issue 38: it said depth 8
    where `match` had none): each figure is the one the parser applies."""
    from genethello.core.frontend import defaults

    text = " ".join(README.read_text().split())
    said = re.search(r"exact at (\d+) empties .*?, (\d+) games, openings (\d+) plies deep, depth (\d+) where a "
                     r"depth has a default \(`match` and `gtp` without `--depth`\)", text)
    assert said, "README no longer states the engine defaults"
    assert tuple(int(x) for x in said.groups()) == (defaults.EXACT_EMPTIES, defaults.GAMES, defaults.RANDOM_PLIES,
                                                    defaults.DEPTH)
    match = build_parser("match").parse_args(["match", "A", "B"])
    assert (match.exact, match.games, match.random_plies, match.depth) == (
        defaults.EXACT_EMPTIES, defaults.GAMES, defaults.RANDOM_PLIES, None)     # None: run_match searches to 8
    gtp = subprocess.run([*genethello(), "gtp", "--player", "p_1_10", "--verbose"], input="genmove b\nquit\n",
                         capture_output=True, text=True, timeout=60)
    assert gtp.returncode == 0 and gtp.stdout.startswith("= "), (gtp.stdout, gtp.stderr)
    assert f": depth {defaults.DEPTH}," in gtp.stderr, gtp.stderr          # its search, as --verbose logs it
