"""A local run exposes nothing: its Ray listens on loopback only (in a
network namespace of its own), writes no readable token, and starts its own
instance even where another Ray is running and RAY_ADDRESS names it."""

from __future__ import annotations

import ipaddress
import os
import stat
import subprocess
from pathlib import Path

from .conftest import cli_env, genethello_argv, kill_session, query, reap_session, session_pids, write_config
from .test_cli_runs import SLOW, wait_for

LISTEN = "0A"


def listening_addresses(pid: int) -> set[str]:
    """Addresses of the TCP sockets listening in ``pid``'s network namespace."""
    found = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            if state != LISTEN:
                continue
            raw = bytes.fromhex(local.split(":")[0])
            # /proc prints each 32-bit word in host (little-endian) order.
            words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.add(str(ipaddress.ip_address(words)))
    return found


def is_loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def interfaces_of(pid: int) -> set[str]:
    try:
        lines = Path(f"/proc/{pid}/net/dev").read_text().splitlines()[2:]
    except OSError:
        return set()
    return {line.split(":", 1)[0].strip() for line in lines if ":" in line}


def test_local_run_listens_on_loopback_only_and_ignores_a_running_ray(tmp_path, ray_cluster):
    import ray

    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, **{**SLOW, "stop__max_generations": 1})
    db_path = tmp_path / "exposed.db"
    env = cli_env(home)
    # Another Ray runs here (this test session's) and RAY_ADDRESS names it:
    # a plain ray.init would attach to it and fail on num_cpus.
    env["RAY_ADDRESS"] = ray.get_runtime_context().gcs_address
    proc = subprocess.Popen(genethello_argv("evolve", "--config", str(config), "--db", str(db_path), "--quiet",
                                            "--workers", "1"), cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        wait_for(lambda: query(db_path, "SELECT count(*) FROM games") not in ([], [(0,)]), 120,
                 "the first stored game", proc)
        pids = session_pids(proc.pid)
        sockets = {pid: listening_addresses(pid) for pid in pids}
        assert any(sockets.values()), "found no listening socket of the run at all"
        exposed = {pid: sorted(a for a in addrs if not is_loopback(a)) for pid, addrs in sockets.items()}
        assert all(not a for a in exposed.values()), f"listening beyond loopback: {exposed}"
        for pid in pids:
            assert interfaces_of(pid) <= {"lo"}, f"process {pid} sees {interfaces_of(pid)}"
        out, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            kill_session(proc)
        reap_session(proc.pid)
    assert proc.returncode == 0, err
    assert "finished at generation 1" in out
    token = home / ".ray" / "auth_token"
    if token.exists():
        assert stat.S_IMODE(os.stat(token).st_mode) == 0o600
