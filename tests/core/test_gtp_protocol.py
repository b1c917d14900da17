"""Property tests of the GTP framing (genethello.core.gtp.protocol): parsing
command lines and formatting answers, as GTP version 2 §2 and the Othello
profile in tests/data/formats/gtp/README.md describe them."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core.gtp.protocol import (
    LINE_TOO_LONG,
    MAX_ID,
    Command,
    clean_line,
    format_failure,
    format_response,
    format_success,
    parse_line,
    parse_response,
    read_commands,
    read_lines,
)

FAST = settings(derandomize=True, max_examples=300, deadline=None)

CONTROL = [chr(c) for c in range(32) if chr(c) not in "\t\n"] + [chr(127)]
# Token characters: printable, no GTP whitespace, no '#', no control characters.
token_chars = st.characters(min_codepoint=33, max_codepoint=0x2FF, blacklist_characters="#\x7f")
tokens = st.text(token_chars, min_size=1, max_size=12)
names = tokens.filter(lambda t: not (t.isascii() and t.isdigit()))
ids = st.one_of(st.none(), st.integers(0, MAX_ID))
arg_lists = st.lists(tokens, max_size=5)
gaps = st.text(st.sampled_from(" \t"), min_size=1, max_size=4)
edges = st.text(st.sampled_from(" \t"), max_size=3)


def join(parts: list[str], separators: list[str]) -> str:
    out = parts[0]
    for part, sep in zip(parts[1:], separators):
        out += sep + part
    return out


@FAST
@given(ids, names, arg_lists)
def test_a_formatted_command_parses_back(cid, name, args):
    line = " ".join(([str(cid)] if cid is not None else []) + [name] + args)
    assert parse_line(line) == Command(cid, name, tuple(args))


@FAST
@given(ids, names, arg_lists, st.data(), edges, edges)
def test_spaces_and_tabs_between_tokens_do_not_matter(cid, name, args, data, lead, trail):
    parts = ([str(cid)] if cid is not None else []) + [name] + args
    seps = [data.draw(gaps) for _ in parts[1:]]
    line = lead + join(parts, seps) + trail + "\n"
    assert parse_line(line) == Command(cid, name, tuple(args))


@FAST
@given(ids, names, arg_lists, st.text(max_size=40))
def test_everything_after_a_hash_is_a_comment(cid, name, args, comment):
    line = " ".join(([str(cid)] if cid is not None else []) + [name] + args)
    assert parse_line(line + "#" + comment.replace("\n", " ")) == parse_line(line)
    assert parse_line(line + " #" + comment.replace("\n", " ")) == parse_line(line)


@FAST
@given(st.text(max_size=60), st.lists(st.tuples(st.integers(0, 80), st.sampled_from(CONTROL)), max_size=6))
def test_control_characters_are_dropped_before_parsing(text, inserts):
    text = text.replace("\n", " ")
    dirty = text
    for pos, ch in inserts:
        pos = min(pos, len(dirty))
        dirty = dirty[:pos] + ch + dirty[pos:]
    assert parse_line(dirty) == parse_line(text)
    assert not set(clean_line(dirty)) & set(CONTROL)


@FAST
@given(ids, names, arg_lists)
def test_crlf_line_ends_are_plain_line_ends(cid, name, args):
    line = " ".join(([str(cid)] if cid is not None else []) + [name] + args)
    assert parse_line(line + "\r\n") == parse_line(line + "\n") == parse_line(line)


@FAST
@given(st.text(st.sampled_from([" ", "\t", "\r"] + CONTROL), max_size=20), st.text(max_size=30))
def test_blank_and_comment_lines_get_no_answer(blank, comment):
    assert parse_line(blank) is None
    assert parse_line(blank + "#" + comment) is None


@FAST
@given(st.integers(0, MAX_ID), st.integers(1, 5), names)
def test_ids_are_normalised(cid, zeros, name):
    assert parse_line("0" * zeros + f"{cid} {name}") == Command(cid, name, ())


@FAST
@given(st.integers(MAX_ID + 1, 10 ** 12), st.sampled_from(["-1", "1.5", "+3", "0x10"]))
def test_tokens_that_are_not_ids_are_command_names(big, other):
    assert parse_line(f"{big} name") == Command(None, str(big), ("name",))
    assert parse_line(f"{other} name") == Command(None, other, ("name",))


@FAST
@given(st.integers(0, MAX_ID))
def test_an_id_alone_is_a_command_without_a_name(cid):
    assert parse_line(f"{cid}") == Command(cid, "", ())


@FAST
@given(st.text(max_size=200))
def test_parsing_never_fails_on_any_text(text):
    for line in text.split("\n"):
        cmd = parse_line(line)
        assert cmd is None or isinstance(cmd, Command)
        if cmd is not None:
            assert all(tok and " " not in tok and "\t" not in tok for tok in (cmd.name,) + cmd.args if tok)


results = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF) | st.just("\n"), max_size=60)


@FAST
@given(ids, results)
def test_success_answers_end_with_exactly_one_empty_line(cid, result):
    text = format_success(cid, result)
    assert text.startswith("=" + ("" if cid is None else str(cid)))
    assert text.endswith("\n\n") and not text.endswith("\n\n\n")
    assert "\n\n" not in text[:-2]
    ok, rid, body = parse_response(text)
    assert ok and rid == cid
    if cid is None:
        assert text.startswith("= ") or text == "=\n\n"
    else:
        assert text[len(str(cid)) + 1] in " \n"


@FAST
@given(ids, tokens)
def test_one_line_results_come_back_unchanged(cid, result):
    assert parse_response(format_success(cid, result)) == (True, cid, result)
    assert format_success(cid, "") == ("=" if cid is None else f"={cid}") + "\n\n"


@FAST
@given(ids, results)
def test_failure_answers_are_one_non_empty_line(cid, message):
    text = format_failure(cid, message)
    head = "?" + ("" if cid is None else str(cid)) + " "
    assert text.startswith(head)
    assert text.endswith("\n\n") and text.count("\n") == 2
    assert text[len(head):-2].strip()
    ok, rid, _ = parse_response(text)
    assert not ok and rid == cid


@FAST
@given(ids, st.booleans(), tokens)
def test_format_response_dispatches(cid, ok, text):
    assert format_response(cid, ok, text) == (format_success(cid, text) if ok else format_failure(cid, text))


def test_examples_from_the_conformance_readme():
    assert parse_line("007 protocol_version") == Command(7, "protocol_version", ())
    assert parse_line("2147483647 version") == Command(2147483647, "version", ())
    assert parse_line("3\tname") == Command(3, "name", ())
    assert parse_line("2 clear_board   # trailing comment is stripped") == Command(2, "clear_board", ())
    assert parse_line("31 showboard\r\n") == Command(31, "showboard", ())
    assert parse_line("-1 name") == Command(None, "-1", ("name",))
    assert parse_line("99") == Command(99, "", ())
    assert parse_line("   \t  ") is None and parse_line("# comment") is None and parse_line("") is None
    assert format_success(1, "2") == "=1 2\n\n"
    assert format_success(7) == "=7\n\n"
    assert format_failure(None, "unknown command") == "? unknown command\n\n"
    assert format_success(6, "a\n\nb\n") == "=6 a\nb\n\n"


class SizedReads(io.BytesIO):
    """A byte stream that notes the size of every readline asked of it."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.sizes: list[int] = []

    def readline(self, size: int | None = -1) -> bytes:
        self.sizes.append(-1 if size is None else size)
        return super().readline(size)


def test_an_id_of_thousands_of_digits_is_a_command_name():
    """int() refuses more than 4300 digits: such a first token used to end
    the session with a ValueError."""
    assert parse_line("1" * 5000 + " name") == Command(None, "1" * 5000, ("name",))


def test_a_line_too_long_is_one_failure_read_in_bounded_chunks():
    """Lines had no length limit (a 900 MB line ended in MemoryError): a
    line over the limit is answered 'line too long' with the id it started
    with, and never held whole; a comment may run on (it gets no answer)."""
    long_line = b"12 komi " + b"5" * 100_000 + b"\n"
    stream = SizedReads(long_line + b"# " + b"c" * 100_000 + b"\n3 name # " + b"c" * 100_000 + b"\n4 name\n")
    cmds = list(read_commands(stream, max_bytes=1000))
    assert cmds == [Command(12, "", (), error=LINE_TOO_LONG), Command(3, "name", ()), Command(4, "name", ())]
    assert stream.sizes and all(0 < size <= 8192 for size in stream.sizes)
    assert list(read_lines(io.BytesIO(b"ab\ncdef\ngh"), max_bytes=3)) == [(b"ab\n", False), (b"cde", True),
                                                                          (b"gh", False)]
