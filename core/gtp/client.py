"""A GTP engine in a subprocess, spoken to with ids: the client that product
code (the yardstick's external engines, the metamachine's oracles) and the
referee share.

    with GtpProcess(["gtp-rhino", "-l", "1"]) as engine:
        print(engine.send("name").text)

Every answer is checked (its id, its form); a crash, a timeout or a
malformed answer is a :class:`ProtocolError`.
"""

from __future__ import annotations

import contextlib
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from genethello.core.gtp.protocol import parse_response


class ProtocolError(Exception):
    """An engine broke the protocol (bad answer, crash, timeout)."""


@dataclass(frozen=True)
class Response:
    ok: bool
    text: str


class GtpProcess:
    """A GTP engine in a subprocess, spoken to with ids.

    Args:
        argv: the engine's command line.
        name: a label for messages (default: the program name).
        cpu: pin the process to this CPU with ``taskset`` (ignored when
            taskset is not installed).
        stderr: where the engine's stderr goes: a file object, or None for
            nowhere (DEVNULL; never an unread pipe that could fill up).
        timeout: default seconds to wait for an answer.
    """

    def __init__(self, argv: Sequence[str], name: str | None = None, cpu: int | None = None,
                 stderr: IO[Any] | None = None, timeout: float = 60.0) -> None:
        argv = list(argv)
        self.name = name or argv[0].rsplit("/", 1)[-1]
        self.pinned = cpu is not None and shutil.which("taskset") is not None
        if self.pinned:
            argv = ["taskset", "-c", str(cpu)] + argv
        self.argv = argv
        self.timeout = timeout
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr if stderr is not None else subprocess.DEVNULL)
        assert self.proc.stdin is not None and self.proc.stdout is not None   # both are PIPEs
        self._stdin: IO[bytes] = self.proc.stdin
        self._stdout: IO[bytes] = self.proc.stdout
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name=f"gtp-reader-{self.name}", daemon=True)
        self._reader.start()
        self._next_id = 1
        self.closed = False

    def _read(self) -> None:
        stream = self._stdout
        try:
            for line in iter(stream.readline, b""):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def send(self, command: str, timeout: float | None = None) -> Response:
        """Send one command and wait for its answer.

        Raises:
            ProtocolError: if the engine died, did not answer in time, or
                answered with a malformed answer or the wrong id.
        """
        if self.closed:
            raise ProtocolError(f"{self.name}: engine already closed")
        cid = self._next_id
        self._next_id += 1
        try:
            self._stdin.write(f"{cid} {command}\n".encode())
            self._stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise ProtocolError(f"{self.name}: cannot send {command!r}: {exc}") from None
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        lines: list[str] = []
        while True:
            try:
                raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise ProtocolError(f"{self.name}: no answer to {command!r} within "
                                    f"{self.timeout if timeout is None else timeout:g} s") from None
            if raw is None:
                self._lines.put(None)
                raise ProtocolError(f"{self.name}: engine closed its output after {command!r} "
                                    f"(exit status {self.proc.poll()})")
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if not line.strip():
                if lines:
                    break
                continue  # stray blank lines between answers
            lines.append(line)
        try:
            ok, rid, text = parse_response("\n".join(lines))
        except ValueError as exc:
            raise ProtocolError(f"{self.name}: answer to {command!r}: {exc}") from None
        if rid != cid:
            raise ProtocolError(f"{self.name}: answer to {command!r} carries id {rid}, expected {cid}")
        return Response(ok, text)

    def close(self, timeout: float = 5.0) -> int | None:
        """Send quit, wait for the process, kill it if it lingers; its exit
        status. Safe to call twice."""
        if self.closed:
            return self.proc.returncode
        if self.proc.poll() is None:
            with contextlib.suppress(ProtocolError):
                self.send("quit", timeout=timeout)
        self.closed = True
        with contextlib.suppress(OSError):
            self._stdin.close()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=timeout)
        self._stdout.close()
        return self.proc.returncode

    def __enter__(self) -> GtpProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
