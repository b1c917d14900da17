"""The addresses other machines can use to reach ``genethello serve``.

Bound to a wildcard (``0.0.0.0`` or ``::``), the server is reachable at each
of this machine's interface addresses, not at ``127.0.0.1``; this module lists
them without sending a packet anywhere: on Linux from the kernel's own tables
(an ioctl per interface for IPv4, which reads each interface's primary
address, and ``/proc/net/if_inet6`` for IPv6), elsewhere from what the host
name resolves to. No dependency (psutil) is needed for this one list.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from pathlib import Path

#: Wildcard binds: every interface of one family.
WILDCARDS = {"0.0.0.0": socket.AF_INET, "::": socket.AF_INET6}
#: Linux's ioctl that reads an interface's IPv4 address.
SIOCGIFADDR = 0x8915
IF_INET6 = Path("/proc/net/if_inet6")


def _linux_ipv4() -> list[str]:
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:              # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _linux_ipv6() -> list[str]:
    found = []
    try:
        lines = IF_INET6.read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        fields = line.split()
        if len(fields) >= 6:
            found.append(str(ipaddress.IPv6Address(bytes.fromhex(fields[0]))))
    return found


def _resolved(family: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]   # the host of an AF_INET/AF_INET6 sockaddr is a str already


def interface_addresses(family: int = socket.AF_INET) -> list[str]:
    """This machine's addresses of ``family`` that another machine could
    use: loopback and link-local ones left out, each once, in a stable order."""
    if sys.platform.startswith("linux"):
        raw = _linux_ipv4() if family == socket.AF_INET else _linux_ipv6()
    else:
        raw = _resolved(family)
    usable = []
    for text in raw:
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if str(address) not in usable:
            usable.append(str(address))
    return usable


def reachable_hosts(bind: str) -> list[str]:
    """The host names to print for a server bound to ``bind``: the bind
    address itself, or for a wildcard every interface address of its family
    (``::`` on Linux also accepts IPv4, so both are listed)."""
    family = WILDCARDS.get(bind)
    if family is None:
        return [bind]
    hosts = interface_addresses(socket.AF_INET)
    if family == socket.AF_INET6:
        hosts += interface_addresses(socket.AF_INET6)
    return hosts


def url_host(host: str) -> str:
    """``host`` as it goes in a URL (IPv6 literals in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
