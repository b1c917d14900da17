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
: "${GENETHELLO_MIN_WORKER_PORT:=10002}"
: "${GENETHELLO_MAX_WORKER_PORT:=19999}"
# The ray executable: the one in the environment genethello is installed in.
: "${RAY:=ray}"

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
# the private binding or turn the dashboard back on.
refuse_unsafe_extra_args() {
    local arg
    for arg in "$@"; do
        case $arg in
        --node-ip-address* | --dashboard-host* | --include-dashboard* | --ray-debugger-external*)
            die "refusing extra argument '$arg': this script sets the node address and keeps the dashboard off"
            ;;
        esac
    done
}

# token_available: Ray's token sources, in its order of precedence:
# RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH, then ~/.ray/auth_token.
token_available() {
    [[ -n ${RAY_AUTH_TOKEN:-} ]] && return 0
    if [[ -n ${RAY_AUTH_TOKEN_PATH:-} ]]; then
        [[ -s $RAY_AUTH_TOKEN_PATH ]]
        return
    fi
    [[ -s $HOME/.ray/auth_token ]]
}

# run_or_print DRY_RUN COMMAND...: print the command (shell-quoted) when
# DRY_RUN is 1, run it otherwise.
run_or_print() {
    local dry_run=$1
    shift
    if ((dry_run)); then
        local out
        printf -v out '%q ' "$@"
        printf 'RAY_AUTH_MODE=token %s\n' "${out% }"
    else
        "$@"
    fi
}

# require_ray DRY_RUN: the ray executable must be there unless we only print.
require_ray() {
    if ((!$1)) && ! command -v "$RAY" >/dev/null 2>&1; then
        die "'$RAY' not found: activate the environment genethello is installed in (or set RAY=/path/to/ray)"
    fi
}
