"""Path B of deploy/README.md as an operator runs it, on separate network
stacks: one head, two workers and an outsider, each in a network namespace
made here, joined by a Linux bridge that lives in a namespace of its own
(nothing is added to this machine's own network, and no namespace has a
route anywhere else: all traffic stays on 10.213.0.0/24 or loopback).

On the head: ``ray-token.sh generate``, ``ray-token.sh install`` to both
workers (through a stand-in for ssh that runs the remote command in the
worker's namespace), ``start-head.sh``; on each worker ``start-worker.sh``;
then the README's own step-5 commands start ``genethello evolve --address``
on the head, and one worker's Ray processes are SIGKILLed while it plays a
generation. Every game must be stored exactly once and the database must
equal a single-machine run of the same config. The outsider, which has no
token, must be refused, and no node may listen on a port that the README's
ports table doesn't list.

The namespaces share this machine's file system and process table, so each
node gets its own HOME (its ~/.ray/auth_token) and its own Ray temp dir
(``--temp-dir``: a worker otherwise uses the head's, and its sockets collide
with the head's). ``ray stop`` finds Ray processes by name on the whole
machine, so it is never run here: each node's processes are found by their
network namespace and killed by pid.

Needs root and ``ip`` (iproute2; tests/install_system_packages.sh installs
it as root); skipped with the reason elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import cli_env, db_snapshot, query, snapshot_diff, write_config

REPO_ROOT = Path(__file__).resolve().parents[2]
DEPLOY = REPO_ROOT / "deploy"
README = DEPLOY / "README.md"
SUBNET = "10.213.0"
NODES = {"head": f"{SUBNET}.1", "worker1": f"{SUBNET}.2", "worker2": f"{SUBNET}.3", "outsider": f"{SUBNET}.4"}
HEAD_PORT = 6379
HEAD_ADDRESS = f"{NODES['head']}:{HEAD_PORT}"
#: The per-node Prometheus endpoint (--metrics-export-port), which the scripts turn off.
METRICS_EXPORT_PORT = 6384
BIN = Path(sys.executable).parent  # where this Python's `ray` and `genethello` are

P = 8
GAMES = P * (P - 1)
#: A little longer than the suite's small run (about 0.1 s a game at depth 2
#: with exact solving from 14 empties), so that a worker can be killed while
#: it plays a generation.
CONFIG = dict(name="netns", population__size=P, games__depth=2, games__exact_empties=14,
              stop__max_generations=3, cluster__task_seconds=0.3)


def _why_not_runnable() -> str | None:
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "needs root to create network namespaces and a bridge"
    if shutil.which("ip") is None:
        return "needs the ip command (iproute2); tests/install_system_packages.sh installs it as root"
    if shutil.which("ray", path=str(BIN)) is None:
        return f"no ray executable beside {sys.executable}"
    return None


pytestmark = pytest.mark.skipif(_why_not_runnable() is not None, reason=_why_not_runnable() or "")


# --------------------------------------------------------------------------- #
# Namespaces


def sh(*argv: str, timeout: float = 60, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    """Run a command (here, not in a namespace); with ``check``, a failure
    raises with its output."""
    result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


@dataclass
class Node:
    """One machine of the cluster: a network namespace, an address on the
    bridge, a HOME and a Ray temp dir of its own."""

    name: str
    netns: str
    ip: str
    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def ray_temp(self) -> Path:
        return self.root / "ray"

    @property
    def token(self) -> Path:
        return self.home / ".ray" / "auth_token"

    def env(self, **extra: str) -> dict[str, str]:
        """This node's shell: the test session's environment before Ray
        started, its own HOME and Ray temp dir, no Ray settings of ours, and
        this Python's bin first on PATH (as an activated venv would)."""
        env = {k: v for k, v in cli_env(self.home).items() if not k.startswith(("RAY_", "GENETHELLO_"))}
        env.update(RAY_TMPDIR=str(self.ray_temp), PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
                   RAY=str(BIN / "ray"), **extra)
        return env

    def argv(self, *args: str) -> list[str]:
        return ["ip", "netns", "exec", self.netns, *args]

    def bash(self, script: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
        """Run a bash script in this node's namespace, from the repository root."""
        return subprocess.run(self.argv("bash", "-c", script), cwd=REPO_ROOT, env=self.env(**env),
                              capture_output=True, text=True, timeout=timeout)

    def pids(self) -> list[int]:
        """Every process in this node's network namespace (its Ray)."""
        result = sh("ip", "netns", "pids", self.netns, check=False)
        return [int(p) for p in result.stdout.split()]

    def kill_all(self, wait: float = 10.0) -> None:
        """SIGKILL every process of this node until none is left."""
        deadline = time.monotonic() + wait
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)

    def listening(self) -> list[tuple[str, int, str]]:
        """(address, port, process) of every listening TCP socket here."""
        out = sh(*self.argv("ss", "-Hltnp")).stdout
        rows = []
        for line in out.splitlines():
            fields = line.split()
            address, _, port = fields[3].rpartition(":")
            rows.append((address, int(port), fields[-1] if len(fields) > 5 else ""))
        return rows


@dataclass
class NetnsCluster:
    """The namespaces, the bridge and each node's folders; ``close`` undoes
    all of it, whatever state a failed test left."""

    tag: str
    base: Path
    switch: str
    nodes: dict[str, Node] = field(default_factory=dict)
    probe: subprocess.Popen | None = None

    def close(self) -> None:
        if self.probe is not None and self.probe.poll() is None:
            self.probe.kill()
            self.probe.communicate()
        for node in self.nodes.values():
            node.kill_all()
        for netns in [n.netns for n in self.nodes.values()] + [self.switch]:
            sh("ip", "netns", "del", netns, check=False)
        shutil.rmtree(self.base, ignore_errors=True)


def build_network(cluster: NetnsCluster) -> None:
    """The switch namespace holds the bridge and one end of each node's
    veth pair; the other end is the node's eth0. Loopback up everywhere; no
    default route anywhere."""
    sh("ip", "netns", "add", cluster.switch)
    sh("ip", "-n", cluster.switch, "link", "set", "lo", "up")
    sh("ip", "-n", cluster.switch, "link", "add", "br0", "type", "bridge")
    sh("ip", "-n", cluster.switch, "link", "set", "br0", "up")
    for i, (name, ip) in enumerate(NODES.items(), start=1):
        node = Node(name, f"{cluster.tag}-{name}", ip, cluster.base / name)
        cluster.nodes[name] = node
        node.home.mkdir(parents=True)
        node.ray_temp.mkdir()
        sh("ip", "netns", "add", node.netns)
        sh("ip", "-n", cluster.switch, "link", "add", f"p{i}", "type", "veth", "peer", "name", "eth0",
           "netns", node.netns)
        sh("ip", "-n", cluster.switch, "link", "set", f"p{i}", "master", "br0", "up")
        sh("ip", "-n", node.netns, "addr", "add", f"{ip}/24", "dev", "eth0")
        sh("ip", "-n", node.netns, "link", "set", "eth0", "up")
        sh("ip", "-n", node.netns, "link", "set", "lo", "up")


def fake_ssh(cluster: NetnsCluster) -> Path:
    """A stand-in for ssh: `fake-ssh HOST COMMAND` runs COMMAND in HOST's
    namespace with HOST's HOME, as ssh would run it on that machine."""
    cases = "\n".join(f"{n.ip}) netns={n.netns}; home={n.home} ;;" for n in cluster.nodes.values())
    path = cluster.base / "fake-ssh"
    path.write_text(f'#!/usr/bin/env bash\nhost=$1; shift\ncase $host in\n{cases}\n'
                    f'*) echo "fake-ssh: unknown host $host" >&2; exit 255 ;;\nesac\n'
                    'exec ip netns exec "$netns" env HOME="$home" bash -c "$*"\n')
    path.chmod(0o755)
    return path


def start_ray_node(node: Node, command: str, attempts: int = 3) -> None:
    """Run a start script on ``node``. A raylet waits a fixed 15 s for its
    node's agent to start, and `ray start` 30 s for the raylet; on a machine
    as loaded as a shared test runner (two cores, Ray nodes and other tests
    starting at once) that can pass. An operator would simply start it
    again: so does this, after clearing what the failed start left."""
    for attempt in range(1, attempts + 1):
        result = node.bash(command, timeout=240)
        output = result.stdout + result.stderr
        if result.returncode == 0:
            return
        if attempt == attempts or "timed out during startup" not in output:
            raise AssertionError(f"{command} on {node.name} failed (attempt {attempt}):\n{output[-3000:]}\n"
                                 f"{ray_log_tails(node)}")
        print(f"{node.name}: start attempt {attempt} timed out; starting again")
        node.kill_all()
        shutil.rmtree(node.ray_temp, ignore_errors=True)
        node.ray_temp.mkdir()


def ray_log_tails(node: Node, lines: int = 12) -> str:
    """The errors in the Ray logs of ``node`` that say why a start failed."""
    tails = []
    for log in sorted(node.ray_temp.glob("session_2*/logs/*")):
        if log.is_file() and log.name.startswith(("raylet", "dashboard_agent", "runtime_env_agent")):
            text = [line for line in log.read_text(errors="replace").splitlines()
                    if re.search(r"\] \(\w+\)|ERROR|Error|Check failed", line) and " I " not in line[:40]]
            if text:
                tails.append(f"--- {log.name}\n" + "\n".join(text[:lines]))
    return "\n".join(tails)


def ray_start_extra(node: Node) -> str:
    """What goes after `--` to the start scripts: the node's own Ray temp
    dir, a small object store, and no CPUs on the head, so that every game
    is played on the workers."""
    cpus = 0 if node.name == "head" else 1
    return f"--num-cpus={cpus} --object-store-memory=100000000 --temp-dir={node.ray_temp}"


#: The outsider: no token, no RAY_AUTH_MODE. It first checks that it reaches
#: the head at all, then tries to join as a driver.
OUTSIDER = r'''
import socket, sys
host, port = sys.argv[1], int(sys.argv[2])
socket.create_connection((host, port), timeout=10).close()
print("reachable", flush=True)
import ray
try:
    ray.init(address=f"{host}:{port}", log_to_driver=False)
except Exception as exc:
    print("refused:", type(exc).__name__, exc, flush=True)
    sys.exit(3)
print("joined:", ray.cluster_resources(), flush=True)
'''


@pytest.fixture(scope="module")
def cluster():
    """Path B steps 1-3: the token made on the head and installed on the
    workers, the head started, then both workers; then the outsider starts
    its attempt to join without a token."""
    tag = f"gt{os.getpid()}"
    base = Path(tempfile.mkdtemp(prefix="gtns-", dir="/tmp"))  # short: Ray's socket paths must fit
    c = NetnsCluster(tag, base, f"{tag}-switch")
    try:
        try:
            build_network(c)
        except AssertionError as exc:
            if "Operation not permitted" in str(exc):
                pytest.skip(f"cannot create network namespaces here: {exc}")
            raise
        head, workers = c.nodes["head"], [c.nodes["worker1"], c.nodes["worker2"]]

        # 1. The token, made on the head and copied to the workers.
        result = head.bash("deploy/ray-token.sh generate")
        assert result.returncode == 0, result.stderr
        result = head.bash(f"deploy/ray-token.sh install {workers[0].ip} {workers[1].ip}", SSH=str(fake_ssh(c)))
        assert result.returncode == 0, result.stderr
        for node in (head, *workers):
            assert node.token.read_text() == head.token.read_text()
            assert node.token.stat().st_mode & 0o777 == 0o600

        # 2. The head on its private address.
        start_ray_node(head, f"deploy/start-head.sh {head.ip} -- {ray_start_extra(head)}")

        # 3. Each worker, one after the other (starting nodes at once on two
        # loaded cores makes timeouts likelier); `auto` takes the source
        # address of its route to the head.
        for worker in workers:
            start_ray_node(worker, f"deploy/start-worker.sh auto {HEAD_ADDRESS} -- {ray_start_extra(worker)}")

        # The outsider tries to join now; the tests below read its answer.
        outsider = c.nodes["outsider"]
        c.probe = subprocess.Popen(outsider.argv(sys.executable, "-c", OUTSIDER, head.ip, str(HEAD_PORT)),
                                   cwd=outsider.root, env=outsider.env(), text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        yield c
    finally:
        c.close()


# --------------------------------------------------------------------------- #
# Tests


def documented_ports() -> set[int]:
    """Every port in the first column of the README's ports table that is
    not marked off, ranges expanded."""
    text = README.read_text()
    table = text[text.index("| port |"):]
    table = table[:table.index("\n\n")]
    ports: set[int] = set()
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if "**off**" in row:
            continue
        low, _, high = cells[0].partition("–")
        ports.update(range(int(low), int(high or low) + 1))
    return ports


def is_loopback(address: str) -> bool:
    address = address.strip("[]")
    return address.startswith(("127.", "::ffff:127.")) or address == "::1"


def undocumented_listeners(node: Node) -> list[tuple[str, int, str]]:
    """Sockets of ``node`` that listen beyond loopback on a port the
    README's ports table doesn't list (or lists as off)."""
    allowed = documented_ports()
    return [(a, p, proc) for a, p, proc in node.listening() if p not in allowed and not is_loopback(a)]


def test_nothing_listens_beyond_the_ports_table_and_metrics_are_off(cluster):
    assert METRICS_EXPORT_PORT not in documented_ports()
    for name in ("head", "worker1", "worker2"):
        node = cluster.nodes[name]
        assert node.listening(), name
        assert not undocumented_listeners(node), f"{name} listens on ports the README's table doesn't list"
        assert METRICS_EXPORT_PORT not in {p for _, p, _ in node.listening()}, name
    # ...and from the outsider the metrics endpoint is shut on every node.
    outsider = cluster.nodes["outsider"]
    for name in ("head", "worker1", "worker2"):
        ip = cluster.nodes[name].ip
        probe = subprocess.run(outsider.argv(sys.executable, "-c", "import socket, sys\n"
                                             "try:\n    socket.create_connection((sys.argv[1], int(sys.argv[2])), 5)\n"
                                             "except ConnectionRefusedError:\n    sys.exit(7)\n",
                                             ip, str(METRICS_EXPORT_PORT)),
                               capture_output=True, text=True, timeout=30)
        assert probe.returncode == 7, (name, probe.stdout, probe.stderr)


def readme_step5() -> str:
    """Path B step 5 of the README: the commands that start the run."""
    text = README.read_text()
    section = text[text.index("## Path B"):]
    section = section[:section.index("\n## ")]
    step = section[section.index("5. On the head"):]
    block = re.search(r"```\n(.*?)```", step, re.S)
    assert block, "no code block in Path B step 5"
    return "\n".join(line.strip() for line in block.group(1).splitlines())


def play_remote_running(node: Node, pids: list[int] | None = None) -> bool:
    """Whether a Ray worker of ``node`` is playing a batch right now (Ray
    titles a worker process after the task it runs); ``pids``: the node's
    processes as last listed (listing them costs a subprocess)."""
    for pid in node.pids() if pids is None else pids:
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::_run_remote"):
                return True
        except OSError:
            pass
    return False


def test_evolution_survives_a_killed_worker_and_equals_one_machine(cluster, tmp_path):
    head, victim = cluster.nodes["head"], cluster.nodes["worker2"]
    config = write_config(cluster.base, "run.toml", **CONFIG)
    commands = readme_step5()
    assert "mkdir -p ~/runs" in commands
    # The README's commands, with this test's config and the head's address.
    script = (commands.replace("config/genethello_oe_fmc.toml", str(config))
              .replace("--address auto", f"--address {HEAD_ADDRESS}"))
    db_path = head.home / "runs" / "oe_fmc.db"
    assert not db_path.parent.exists()
    evolve = subprocess.Popen(head.argv("bash", "-ec", script), cwd=REPO_ROOT, env=head.env(PYTHONUNBUFFERED="1"),
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    killed_at = None
    seen: list[tuple[int, int, int, bool]] = []  # what the loop saw, for the failure message
    try:
        # Kill the worker's Ray (raylet, agents, game workers) while it plays
        # a batch of a generation that has stored some of its games.
        deadline = time.monotonic() + 240
        while evolve.poll() is None and time.monotonic() < deadline:
            rows = query(db_path, "SELECT number, games_done, games_total FROM generations "
                                  "WHERE status = 'playing' ORDER BY number DESC LIMIT 1")
            playing = play_remote_running(victim)
            if rows and (not seen or seen[-1] != (*rows[0], playing)):
                seen.append((*rows[0], playing))
            if rows and 0 < rows[0][1] < rows[0][2] and playing:
                # While games are played, the driver and the game workers
                # listen too: on ports of the table's worker range.
                for node in (head, cluster.nodes["worker1"], victim):
                    assert not undocumented_listeners(node), node.name
                victim.kill_all()
                killed_at = rows[0]
                break
            time.sleep(0.01)
        if killed_at is None:
            out = evolve.communicate(timeout=240)[0] if evolve.poll() is not None else "(still running)"
            raise AssertionError("the worker was never seen playing mid-generation; (generation, done, total, "
                                 f"victim playing) seen: {seen[-40:]}\nevolve exited {evolve.returncode}:\n"
                                 f"{out[-5000:]}")
        assert not victim.pids()
        out, _ = evolve.communicate(timeout=240)
    finally:
        if evolve.poll() is None:
            os.killpg(evolve.pid, signal.SIGKILL)
            evolve.communicate()
    assert evolve.returncode == 0, out[-5000:]
    assert "finished at generation 3" in out, out[-5000:]

    # Every game stored exactly once: each generation holds every pair index.
    games = query(db_path, "SELECT generation, pair_index FROM games")
    assert len(games) == len(set(games)) == 3 * GAMES
    for generation in (1, 2, 3):
        assert sorted(i for g, i in games if g == generation) == list(range(GAMES))
    assert query(db_path, "SELECT number, games_done, games_total FROM generations ORDER BY number") == [
        (g, GAMES, GAMES) for g in (1, 2, 3)]

    # The same run on one machine, in this process.
    ref = Database.open(tmp_path / "single.db", create=True)
    try:
        run_id = create_run(ref, load_config(config))
        assert Coordinator(ref, run_id, SerialExecutor(0.3), Progress(enabled=False)).run() == "finished"
    finally:
        ref.dispose()
    a, b = db_snapshot(db_path, "netns"), db_snapshot(tmp_path / "single.db", "netns")
    assert a == b, snapshot_diff(a, b)


#: A pbt-td run whose learning slices last long enough (8 members, 200
#: self-play games each, a few at a time on each worker) that a worker can
#: be killed while it learns one; no hall, so that a generation is 'rated'
#: exactly while its members learn.
LEARNING = dict(name="netns-learning", population__type="all-2-s4", population__size=8,
                breeding__method="pbt-td", breeding__learning_games=200, breeding__learning_batch=50,
                breeding__learning_max_depth=2, fitness__kind="coevolution", fitness__games_per_pair=2,
                fitness__depth=1, fitness__openings="distinct-4", fitness__batch_games=8, hall__games_per_member=0,
                yardstick__league_double_games=0, stop__max_generations=4, cluster__task_seconds=0.3)


def test_a_learning_run_survives_a_worker_killed_mid_slice_and_equals_one_machine(cluster, tmp_path):
    """Issue 36 part 7: pbt-td's learning slices run on the workers; a
    worker killed while it learns one costs the slice a retry elsewhere,
    and the database equals a serial run's on one machine."""
    head, victim = cluster.nodes["head"], cluster.nodes["worker1"]
    for worker in (cluster.nodes["worker1"], cluster.nodes["worker2"]):
        if not worker.pids():                       # killed by the test before: it joins again
            start_ray_node(worker, f"deploy/start-worker.sh auto {HEAD_ADDRESS} -- {ray_start_extra(worker)}")
    config = write_config(cluster.base, "learning.toml", **LEARNING)
    db_path = tmp_path / "learning.db"
    script = (f'eval "$(deploy/ray-token.sh env)"\n'
              f"genethello evolve --config {config} --db {db_path} --address {HEAD_ADDRESS}")
    evolve = subprocess.Popen(head.argv("bash", "-ec", script), cwd=REPO_ROOT, env=head.env(PYTHONUNBUFFERED="1"),
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    killed_at = None
    seen: list[tuple[int, str, bool]] = []
    pids, listed = victim.pids(), time.monotonic()
    try:
        deadline = time.monotonic() + 240
        while evolve.poll() is None and time.monotonic() < deadline:
            if time.monotonic() - listed > 0.5:     # Ray's workers come and go rarely: poll /proc in between
                pids, listed = victim.pids(), time.monotonic()
            rows = query(db_path, "SELECT number, status FROM generations ORDER BY number DESC LIMIT 1")
            learning = play_remote_running(victim, pids)
            if rows and (not seen or seen[-1] != (*rows[0], learning)):
                seen.append((*rows[0], learning))
            if rows and rows[0][1] == "rated" and rows[0][0] < 4 and learning:
                victim.kill_all()
                killed_at = rows[0]
                break
            time.sleep(0.01)
        if killed_at is None:
            out = evolve.communicate(timeout=240)[0] if evolve.poll() is not None else "(still running)"
            raise AssertionError(f"the worker was never seen learning; (generation, status, victim busy) seen: "
                                 f"{seen[-40:]}\nevolve exited {evolve.returncode}:\n{out[-5000:]}")
        assert not victim.pids()
        out, _ = evolve.communicate(timeout=300)
    finally:
        if evolve.poll() is None:
            os.killpg(evolve.pid, signal.SIGKILL)
            evolve.communicate()
    assert evolve.returncode == 0, out[-5000:]
    assert "finished at generation 4" in out, out[-5000:]

    ref = Database.open(tmp_path / "single.db", create=True)
    try:
        run_id = create_run(ref, load_config(config))
        assert Coordinator(ref, run_id, SerialExecutor(0.3), Progress(enabled=False)).run() == "finished"
    finally:
        ref.dispose()
    a, b = db_snapshot(db_path, "netns-learning"), db_snapshot(tmp_path / "single.db", "netns-learning")
    assert a == b, snapshot_diff(a, b)


def test_outsider_without_a_token_is_refused(cluster):
    """Last, so that Ray's retries (about 20 s) overlap the run above."""
    out, _ = cluster.probe.communicate(timeout=120)
    assert out.startswith("reachable"), out[-3000:]  # the network lets it through: only the token stops it
    assert cluster.probe.returncode == 3, out[-3000:]
    assert "joined:" not in out
    assert re.search(r"Unauthenticated|InvalidAuthToken|AuthenticationError", out), out[-3000:]
