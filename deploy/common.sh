# shellcheck shell=bash
# Shared by start-head.sh and start-worker.sh (sourced, not run).
#
# Ports are fixed, not random, so that a firewall can allow exactly these
# between cluster nodes. Override any of them in the environment; every node
# of one cluster must use the same values.
: "${GENETHELLO_RAY_PORT:=6379}"                      # GCS, head only (--port)
: "${GENETHELLO_RAY_CLIENT_SERVER_PORT:=10001}"       # Ray Client, head only
: "${GENETHELLO_NODE_MANAGER_PORT:=6380}"             # raylet
: "${GENETHELLO_OBJECT_MANAGER_PORT:=6381}"
: "${GENETHELLO_RUNTIME_ENV_AGENT_PORT:=6382}"
: "${GENETHELLO_DASHBOARD_AGENT_GRPC_PORT:=6383}"
: "${GENETHELLO_DASHBOARD_AGENT_LISTEN_PORT:=52365}"
: "${GENETHELLO_METRICS_EXPORT_PORT:=6384}"
# The head's two metrics servers (autoscaler monitor, dashboard process):
# no flag turns them off or binds them to one address; these pin their ports.
: "${GENETHELLO_AUTOSCALER_METRIC_PORT:=44217}"
: "${GENETHELLO_DASHBOARD_METRIC_PORT:=44227}"
: "${GENETHELLO_MIN_WORKER_PORT:=10002}"
: "${GENETHELLO_MAX_WORKER_PORT:=19999}"
# The ray executable: the one in the environment genethello is installed in.
: "${RAY:=ray}"

# The environment of every `ray start`: token authentication on, and Ray's
# metrics collection off. With collection on, each node's agent serves
# Prometheus metrics (--metrics-export-port) on every interface to anyone,
# no token asked. The head's autoscaler monitor and dashboard process serve
# two more metrics ports that no setting closes (deploy/README.md): their
# ports are pinned here so that the firewall can name them.
# shellcheck disable=SC2034  # used by run_or_print below
ray_start_env=(
    RAY_AUTH_MODE=token
    RAY_enable_metrics_collection=0
    AUTOSCALER_METRIC_PORT="$GENETHELLO_AUTOSCALER_METRIC_PORT"
    DASHBOARD_METRIC_PORT="$GENETHELLO_DASHBOARD_METRIC_PORT"
)

# The `ray start` flags every node takes, head and workers alike: the fixed
# per-node ports above, and no usage reports.
# shellcheck disable=SC2034  # used by the scripts that source this file
node_port_args=(
    --node-manager-port="$GENETHELLO_NODE_MANAGER_PORT"
    --object-manager-port="$GENETHELLO_OBJECT_MANAGER_PORT"
    --runtime-env-agent-port="$GENETHELLO_RUNTIME_ENV_AGENT_PORT"
    --dashboard-agent-grpc-port="$GENETHELLO_DASHBOARD_AGENT_GRPC_PORT"
    --dashboard-agent-listen-port="$GENETHELLO_DASHBOARD_AGENT_LISTEN_PORT"
    --metrics-export-port="$GENETHELLO_METRICS_EXPORT_PORT"
    --min-worker-port="$GENETHELLO_MIN_WORKER_PORT"
    --max-worker-port="$GENETHELLO_MAX_WORKER_PORT"
    --disable-usage-stats
)

die() {
    printf '%s: %s\n' "${0##*/}" "$*" >&2
    exit 2
}

# parse_start_args WITH_PORT ARG...: the command line start-head.sh and
# start-worker.sh share. Sets dry_run (1 with --dry-run, else 0), positional
# (the arguments that are not options, in order) and extra (everything after
# --, for `ray start`); when WITH_PORT is 1 (the head) it also takes
# --port PORT or --port=PORT into port (default GENETHELLO_RAY_PORT).
# -h/--help prints the caller's usage() and exits; an unknown option prints
# usage() and dies. Values are checked by the caller, not here.
# shellcheck disable=SC2034  # its variables are read by the scripts that source this file
parse_start_args() {
    local with_port=$1
    shift
    dry_run=0
    positional=()
    extra=()
    port=$GENETHELLO_RAY_PORT
    while (($#)); do
        case $1 in
        --dry-run) dry_run=1 ;;
        --port | --port=*)
            ((with_port)) || {
                usage >&2
                die "unknown option '$1'"
            }
            if [[ $1 == --port ]]; then
                (($# >= 2)) || die "--port needs a value"
                port=$2
                shift
            else
                port=${1#--port=}
            fi
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        --)
            shift
            extra=("$@")
            break
            ;;
        -*)
            usage >&2
            die "unknown option '$1'"
            ;;
        *) positional+=("$1") ;;
        esac
        shift
    done
}

# is_private_ipv4 IP: true for a dotted-quad IPv4 address in 10.0.0.0/8,
# 172.16.0.0/12, 192.168.0.0/16 or 127.0.0.0/8; false for anything else
# (0.0.0.0, public addresses, hostnames, IPv6).
is_private_ipv4() {
    local ip=$1 a b c d
    # no leading zeros: some parsers read 010 as octal (8)
    local octet_re='(0|[1-9][0-9]{0,2})'
    [[ $ip =~ ^$octet_re\.$octet_re\.$octet_re\.$octet_re$ ]] || return 1
    IFS=. read -r a b c d <<<"$ip"
    local octet
    for octet in "$a" "$b" "$c" "$d"; do
        ((octet <= 255)) || return 1
    done
    ((a == 10)) && return 0
    ((a == 172 && b >= 16 && b <= 31)) && return 0
    ((a == 192 && b == 168)) && return 0
    ((a == 127)) && return 0
    return 1
}

# require_private_ip WHAT IP: exit with a clear message unless IP is private.
require_private_ip() {
    local what=$1 ip=$2
    if [[ $ip == 0.0.0.0 ]]; then
        die "refusing $what 0.0.0.0: it binds every interface, public ones included; give this node's private address"
    fi
    if ! is_private_ipv4 "$ip"; then
        die "refusing $what '$ip': not a private IPv4 address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 127.0.0.0/8); Ray's ports must never face a public network"
    fi
}

# require_port NAME VALUE
require_port() {
    if ! [[ $2 =~ ^[0-9]+$ ]] || ((10#$2 < 1 || 10#$2 > 65535)); then
        die "$1 must be a port number, got '$2'"
    fi
}

# refuse_unsafe_extra_args ARG...: extra `ray start` arguments may not undo
# the private binding, turn the dashboard back on, or name an address that
# is not private. `ray start` takes the last of a repeated flag, so an extra
# `--address=198.51.100.7:6379` would point the node at another cluster: the
# scripts set the address themselves and refuse it here, and any IPv4
# address inside an extra argument (a URL, a JSON value) must be private.
refuse_unsafe_extra_args() {
    local args=("$@") i arg rest ip
    for ((i = 0; i < ${#args[@]}; i++)); do
        arg=${args[i]}
        case $arg in
        --node-ip-address* | --dashboard-host* | --include-dashboard* | --ray-debugger-external*)
            die "refusing extra argument '$arg': this script sets the node address and keeps the dashboard off"
            ;;
        --address=*)
            die "refusing extra argument '$arg': this script sets the address itself (a worker's head is its HEAD_IP[:PORT] argument)"
            ;;
        --address)
            die "refusing extra argument '$arg${args[i + 1]+ ${args[i + 1]}}': this script sets the address itself (a worker's head is its HEAD_IP[:PORT] argument)"
            ;;
        esac
        rest=$arg
        while [[ $rest =~ ([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+) ]]; do
            ip=${BASH_REMATCH[1]}
            require_private_ip "extra argument '$arg' with address" "$ip"
            rest=${rest#*"$ip"}
        done
    done
}

# token_available: Ray's token sources, in its order of precedence:
# RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH, then ~/.ray/auth_token.
token_available() {
    [[ -n ${RAY_AUTH_TOKEN:-} ]] && return 0
    [[ -s $(token_file) ]]
}

# token_file: the file Ray reads the token from when RAY_AUTH_TOKEN is unset.
token_file() {
    printf '%s\n' "${RAY_AUTH_TOKEN_PATH:-$HOME/.ray/auth_token}"
}

# file_mode PATH: the permission bits in octal (GNU stat, else BSD stat).
file_mode() {
    stat -c '%a' -- "$1" 2>/dev/null || stat -f '%Lp' -- "$1"
}

# stale_token_mode: the mode of the token file when others may read it
# (nothing otherwise). ray-token.sh writes and installs tokens 0600; a
# single-machine Ray run (ray.init, `genethello evolve` without --address)
# leaves its own token at 0644. Such a token is not the cluster's: it passes
# the "is there a token" check, and `ray start` then dies after about 20 s
# with an authentication traceback.
stale_token_mode() {
    [[ -z ${RAY_AUTH_TOKEN:-} ]] || return 0
    local path mode
    path=$(token_file)
    [[ -s $path ]] || return 0
    mode=$(file_mode "$path")
    if ((8#$mode & 8#077)); then
        printf '%04o\n' "$((8#$mode))"
    fi
}

# require_token DRY_RUN MISSING STALE: stop unless there is a token that can
# be the cluster's. MISSING and STALE say what to do about each case; a dry
# run only warns.
require_token() {
    local dry_run=$1 missing=$2 stale=$3 problem="" mode
    if ! token_available; then
        problem="no Ray auth token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token); $missing"
    else
        mode=$(stale_token_mode)
        if [[ -n $mode ]]; then
            problem="the token at $(token_file) has mode $mode, readable by others: not one ray-token.sh wrote (those are 0600) but most likely one a single-machine Ray run left behind, which the cluster would refuse after about 20 s; $stale"
        fi
    fi
    [[ -n $problem ]] || return 0
    if ((dry_run)); then
        printf '%s: warning: %s\n' "${0##*/}" "$problem" >&2
    else
        die "$problem"
    fi
}

# run_or_print DRY_RUN COMMAND...: run COMMAND in the ray_start_env
# environment, or print it (shell-quoted, environment first) when DRY_RUN
# is 1.
run_or_print() {
    local dry_run=$1
    shift
    if ((dry_run)); then
        local out
        printf -v out '%q ' "${ray_start_env[@]}" "$@"
        printf '%s\n' "${out% }"
    else
        env "${ray_start_env[@]}" "$@"
    fi
}

# require_ray DRY_RUN: the ray executable must be there unless we only print.
require_ray() {
    if ((!$1)) && ! command -v "$RAY" >/dev/null 2>&1; then
        die "'$RAY' not found: activate the environment genethello is installed in (or set RAY=/path/to/ray)"
    fi
}
