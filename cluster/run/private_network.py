"""A private network namespace for a local run: Ray reachable through loopback only.

Ray 2.60's gRPC servers (GCS, raylet, core workers, agents) listen on every
interface and offer no switch to bind loopback; its metrics endpoints answer
anyone. A local run needs no network at all, so before it starts Ray the
process moves into a network namespace of its own whose only interface is a
loopback device. Ray then resolves its node address to 127.0.0.1, binds
there, and nothing it opens is reachable from outside the process tree — not
from other machines and not from other users of this one.

Root may create the namespace directly; any other user gets it inside a user
namespace that maps their own uid and gid (files keep their owner). Both
need a Linux kernel; where neither is allowed the caller is told why and
decides what to do.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1


class PrivateNetworkError(RuntimeError):
    """The process could not get a network namespace of its own."""


def _unshare(flags: int) -> int:
    """unshare(2); returns 0 or the errno."""
    libc = ctypes.CDLL(None, use_errno=True)
    return 0 if libc.unshare(flags) == 0 else ctypes.get_errno()


def _map_own_ids(uid: int, gid: int) -> None:
    """In a fresh user namespace, keep being ``uid``/``gid``."""
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        flags = struct.unpack("16sh", fcntl.ioctl(s, _SIOCGIFFLAGS, struct.pack("16sh", b"lo", 0)))[1]
        fcntl.ioctl(s, _SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | _IFF_UP))


def enter_private_network() -> None:
    """Move this process (and every process it starts from now on) into a
    network namespace with only loopback, up.

    Call it before any network activity and before threads are started (a
    user namespace requires a single-threaded process).

    Raises:
        PrivateNetworkError: naming why the kernel refused.
    """
    if not hasattr(os, "uname") or os.uname().sysname != "Linux":
        raise PrivateNetworkError("a private network namespace needs Linux")
    uid, gid = os.getuid(), os.getgid()
    err = _unshare(CLONE_NEWNET)
    if err:
        err_user = _unshare(CLONE_NEWUSER | CLONE_NEWNET)
        if err_user:
            raise PrivateNetworkError(
                f"the kernel refused a private network namespace ({os.strerror(err)}) and a user "
                f"namespace for one ({os.strerror(err_user)})")
        _map_own_ids(uid, gid)
    try:
        _loopback_up()
    except OSError as exc:
        raise PrivateNetworkError(f"could not bring up loopback in the private namespace: {exc}") from None


def interfaces() -> list[str]:
    """The network interfaces this process sees (from /proc/net/dev)."""
    with open("/proc/net/dev") as f:
        return [line.split(":", 1)[0].strip() for line in f.read().splitlines()[2:] if ":" in line]


#: The reaper (run as ``python -c``): it waits for the end of its stdin, a
#: pipe whose only writer is the run's process, then SIGKILLs every process
#: left in the private network namespace (argv[1]), until none is; it does
#: nothing in any other namespace (argv[2]: the one the run came from).
_REAPER = """
import os, signal, sys, time
private, original = sys.argv[1], sys.argv[2]
sys.stdin.buffer.read()
me = os.getpid()
if os.readlink("/proc/self/ns/net") == private != original:
    for _ in range(100):
        found = False
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != me:
                try:
                    if os.readlink(f"/proc/{entry}/ns/net") == private:
                        os.kill(int(entry), signal.SIGKILL)
                        found = True
                except OSError:
                    pass
        if not found:
            break
        time.sleep(0.1)
"""


def start_reaper(original_namespace: str) -> None:
    """Start a process that, once this one has ended (however: a SIGKILL of
    its process group included), kills whatever is left in this private
    network namespace, so that nothing of a local run outlives it: Ray's
    DashboardAgent and RuntimeEnvAgent ignore SIGTERM and stay for minutes
    after their raylet died. Only the run's processes are there (the
    namespace was made for it); the reaper checks that it is not the
    namespace the run came from, ``original_namespace`` (a
    ``/proc/self/ns/net`` link read before :func:`enter_private_network`).

    The reaper runs in a session of its own (a signal to the run's process
    group does not reach it) and holds the read end of a pipe whose write
    end only this process has (not inherited: Python's descriptors are not).
    """
    import subprocess
    import sys

    private = os.readlink("/proc/self/ns/net")
    if private == original_namespace:
        raise PrivateNetworkError("this process is not in a private network namespace: no reaper started")
    read, write = os.pipe()
    try:
        subprocess.Popen([sys.executable, "-c", _REAPER, private, original_namespace], stdin=read,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         close_fds=True)
    finally:
        os.close(read)
    _REAPER_PIPE.append(write)      # kept open until this process ends


#: The write end of the reaper's pipe (closed by the kernel when this process ends).
_REAPER_PIPE: list[int] = []
