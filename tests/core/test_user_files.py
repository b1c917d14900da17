"""One bounded reader for every file a user names (issue 37 §3-§5, issue
35's walls): FIFOs, devices and directories refused at once, a size bound,
zlib streams unpacked to their expected size and no further, nothing after
a stream's end, nesting and numbers that Python cannot read answered in one
line. The command-line cases run the real ``genethello`` in a subprocess
bounded in time and address space (a regression fails the test, not the
machine)."""

from __future__ import annotations

import base64
import json
import os
import resource
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from genethello.core.families.network_family import (
    NETWORKS,
    PACKED_PAYLOAD_MAGIC,
    NetworkError,
    NetworkIndividual,
    weights_from_payload,
)
from genethello.core.families.network_files import NetworkFileError, network_document, parse_network_file
from genethello.core.families.networks import Network
from genethello.core.frontend.user_files import (
    UserFileError,
    inflate_bounded,
    loads_json,
    loads_toml,
    read_user_file,
    user_text,
)

#: The address space a bounded command may take: far below what an
#: unbounded read of /dev/zero or a zlib bomb reaches (gigabytes).
MEMORY_BOUND = 1536 * 1024 * 1024


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


def genethello(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """``genethello ARGS``, bounded in time (a hang fails) and memory."""
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=_bounded)


def one_line(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    return lines[0]


# -- the reader itself ---------------------------------------------------------------------------------------


def test_a_fifo_a_device_and_a_directory_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO"), (Path("/dev/zero"), "a character device"), (tmp_path, "a directory")):
        with pytest.raises(UserFileError) as caught:
            read_user_file(path, "config file", 1024)
        assert str(caught.value) == f"cannot read config file {path}: {kind}, not a regular file"


def test_a_file_over_the_bound_is_refused_and_one_at_it_is_read(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_user_file(path, "positions file", 100) == b"x" * 100
    with pytest.raises(UserFileError, match=r"100 bytes, more than the 99 bytes it may hold"):
        read_user_file(path, "positions file", 99)


def test_a_missing_file_and_a_null_byte_name_the_file(tmp_path):
    with pytest.raises(UserFileError, match=r"cannot read config file .*nothing: No such file or directory"):
        read_user_file(tmp_path / "nothing", "config file", 10)
    with pytest.raises(UserFileError, match=r"cannot read config file a\\x00b: the name holds a null character"):
        read_user_file("a\0b", "config file", 10)


def test_bad_utf8_names_the_file_and_the_byte():
    with pytest.raises(UserFileError) as caught:
        user_text(b"name = 1\n\xff", "my.toml")
    assert str(caught.value) == "my.toml: not UTF-8 text (invalid start byte 0xff at byte 9)"


def test_inflate_stops_at_the_expected_size_plus_one():
    bomb = zlib.compress(b"\0" * (64 * 1024 * 1024), 9)
    with pytest.raises(UserFileError) as caught:
        inflate_bounded(bomb, 1000, "w")
    assert str(caught.value) == "w: the packed data unpacks to more than the 1,000 bytes expected"


def test_inflate_refuses_bytes_after_the_stream_and_a_short_stream():
    stream = zlib.compress(b"abcd")
    assert inflate_bounded(stream, 4, "w") == b"abcd"
    with pytest.raises(UserFileError, match=r"w: 3 bytes follow the end of the packed data"):
        inflate_bounded(stream + b"xyz", 4, "w")
    with pytest.raises(UserFileError, match=r"ends early"):
        inflate_bounded(stream[:-3], 4, "w")
    with pytest.raises(UserFileError, match=r"unpacks to 4 bytes, not the 5 expected"):
        inflate_bounded(stream, 5, "w")


def test_deep_nesting_and_long_numbers_are_one_line():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(UserFileError, match=r"^x.json: not JSON genethello reads \(nested too deep\)$"):
        loads_json(deep, "x.json")
    with pytest.raises(UserFileError, match=r"^c.toml: not valid TOML genethello reads \(nested too deep\)$"):
        loads_toml("a = " + deep, "c.toml")
    with pytest.raises(UserFileError, match=r"^c.toml: .*a number of more than 4,300 digits\)$"):
        loads_toml("seed = " + "1" * 5000, "c.toml")
    with pytest.raises(UserFileError, match=r"^x.json: .*a number of more than 4,300 digits\)$"):
        loads_json("[" + "1" * 5000 + "]", "x.json")


# -- a stored payload ----------------------------------------------------------------------------------------


def test_a_stored_payload_with_bytes_after_its_stream_is_refused():
    kind = NETWORKS.parse_kind("all-1")
    raw = np.zeros(kind.n_weights, dtype="<f8").tobytes()
    packed = PACKED_PAYLOAD_MAGIC + zlib.compress(raw)
    assert weights_from_payload(kind, packed, "t").size == kind.n_weights
    with pytest.raises(NetworkError, match=r"2 bytes follow the end of the packed data"):
        weights_from_payload(kind, packed + b"!!", "t")


def test_a_stored_payload_that_unpacks_too_far_names_the_expected_size():
    kind = NETWORKS.parse_kind("all-1")
    expected = kind.n_weights * 8
    packed = PACKED_PAYLOAD_MAGIC + zlib.compress(b"\0" * (expected + 100))
    with pytest.raises(NetworkError) as caught:
        weights_from_payload(kind, packed, "t")
    assert f"unpacks to more than the {expected:,} bytes expected" in str(caught.value)


# -- network files and commands ------------------------------------------------------------------------------


def _staged_document() -> dict:
    kind = NETWORKS.parse_kind("all-1-s2")
    network = Network(kind.architecture, np.zeros(kind.n_weights), kind.stages, kind.whole_disc_weight)
    return network_document(NetworkIndividual(kind, 1, network))


def _packed(doc: dict, stream: bytes) -> dict:
    doc = dict(doc)
    doc.pop("weights", None)
    doc["packed_weights"] = {"encoding": "int32-zlib-base64", "units_per_disc": 64,
                             "data": base64.b64encode(stream).decode()}
    return doc


def test_a_packed_file_with_trailing_bytes_is_refused():
    doc = _staged_document()
    n = len(doc["weights"])
    good = zlib.compress(np.zeros(n, dtype="<i4").tobytes())
    assert parse_network_file(json.dumps(_packed(doc, good)), "f.json").type.name == "all-1-s2"
    with pytest.raises(NetworkFileError, match=r"^f.json: \"packed_weights\": 1 bytes follow the end"):
        parse_network_file(json.dumps(_packed(doc, good + b"\0")), "f.json")


def zeros_stream(chunk_bytes: int, count: int) -> bytes:
    """A valid zlib stream of ``count`` * ``chunk_bytes`` zeros, built from
    one flushed block repeated (compressing gigabytes would take seconds)."""
    chunk = b"\0" * chunk_bytes
    packer = zlib.compressobj(9)
    first = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)     # starts afresh: repeatable
    end = packer.flush()[:-4]
    checksum = 1
    for _ in range(count):
        checksum = zlib.adler32(chunk, checksum)
    stream = first + block * (count - 1) + end + checksum.to_bytes(4, "big")
    assert zlib.decompressobj().decompress(stream, 10) == b"\0" * 10
    return stream


def test_a_zlib_bomb_in_a_network_file_is_one_line_in_bounded_memory(tmp_path):
    """A 2 GiB stream of zeros packed into about 2 MB: read unbounded it
    would pass the memory bound many times over."""
    stream = zeros_stream(64 * 1024 * 1024, 32)
    path = tmp_path / "bomb.json"
    path.write_text(json.dumps(_packed(_staged_document(), stream)))
    line = one_line(genethello("network", "show", str(path), cwd=tmp_path))
    assert line.startswith(f"genethello network: error: {path}: \"packed_weights\": the packed data unpacks to "
                           "more than the ")


@pytest.mark.parametrize("args", [("solve", "{fifo}"), ("solve", "/dev/zero"), ("solve", "{dir}"),
                                  ("evolve", "--config", "{fifo}", "--db", "x.db"),
                                  ("evolve", "--config", "/dev/zero", "--db", "x.db"),
                                  ("network", "show", "/dev/zero")])
def test_a_file_that_never_ends_is_one_line_at_once(tmp_path, args):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    filled = [a.format(fifo=fifo, dir=tmp_path) for a in args]
    line = one_line(genethello(*filled, cwd=tmp_path, timeout=30))
    assert "not a regular file" in line, line


def test_a_config_nested_100000_deep_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert one_line(genethello("evolve", "--config", str(path), "--db", "x.db", cwd=tmp_path)).endswith(
        f"{path}: not valid TOML genethello reads (nested too deep)")


def test_a_config_of_bad_bytes_and_long_numbers_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b'name = "x"\n\xff\n')
    assert one_line(genethello("evolve", "--config", str(path), "--db", "x.db", cwd=tmp_path)).endswith(
        f"{path}: not UTF-8 text (invalid start byte 0xff at byte 11)")
    path.write_text("seed = " + "1" * 5000 + "\n")
    assert one_line(genethello("evolve", "--config", str(path), "--db", "x.db", cwd=tmp_path)).endswith(
        f"{path}: not valid TOML genethello reads (a number of more than 4,300 digits)")


# -- --out ---------------------------------------------------------------------------------------------------

CHROMOSOME = "oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"


@pytest.mark.parametrize("command", [
    ("network", "random", "--arch", "all-1", "--seed", "1"),
    ("network", "export", "all-2-league"),
    ("match", CHROMOSOME, "fmc_1_1:2:3", "--depth", "1", "--games", "2"),
])
def test_out_force_replaces_a_link_and_never_writes_through_it(tmp_path, command):
    """Issue 37 §8: ``--out LINK --force`` overwrote the link's target."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    refused = genethello(*command, "--out", str(link), cwd=tmp_path)
    assert one_line(refused).endswith(f"{link} exists: give --force to replace it")
    done = genethello(*command, "--out", str(link), "--force", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert target.read_text() == "keep me\n"
    assert not link.is_symlink() and link.stat().st_size > 0


@pytest.mark.parametrize("command", [
    ("network", "random", "--arch", "all-1", "--seed", "1"),
    ("match", CHROMOSOME, "fmc_1_1:2:3", "--depth", "1", "--games", "2"),
])
def test_out_in_a_missing_folder_names_the_file(tmp_path, command):
    """Not a bare "[Errno 2] No such file or directory"."""
    out = tmp_path / "nowhere" / "out.txt"
    line = one_line(genethello(*command, "--out", str(out), cwd=tmp_path))
    assert line.endswith(f"cannot write {'network file' if 'network' in command else '--out file'} {out}: "
                         "No such file or directory"), line


def test_serve_refuses_a_slot_count_no_machine_holds(tmp_path):
    """Issue 37 §9: ``serve --slots 99999999999`` was accepted."""
    line = one_line(genethello("serve", "--db", str(tmp_path / "x.db"), "--slots", "99999999999", cwd=tmp_path))
    assert line == "genethello serve: error: --slots must be in 1..256, got 99999999999"


def test_a_played_payload_that_unpacks_too_far_or_carries_more_is_refused():
    """The compact payload of a learning run's past member (raw LZMA2) is
    unpacked as boundedly as a zlib one."""
    import lzma

    from genethello.core.families.network_family import played_payload
    from genethello.core.frontend.user_files import LZMA_FILTERS

    kind = NETWORKS.parse_kind("all-1-s2")
    network = Network(kind.architecture, np.zeros(kind.n_weights), 2, 0)
    good = played_payload(network)
    assert weights_from_payload(kind, good, "t").size == kind.n_weights
    with pytest.raises(NetworkError, match=r"bytes follow the end of the packed data"):
        weights_from_payload(kind, good + b"\0\0", "t")
    bomb = good[:8] + lzma.compress(b"\0" * (64 << 20), format=lzma.FORMAT_RAW, filters=LZMA_FILTERS)
    with pytest.raises(NetworkError, match=r"unpacks to more than the"):
        weights_from_payload(kind, bomb, "t")
