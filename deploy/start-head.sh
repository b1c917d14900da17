#!/usr/bin/env bash
# Start the Ray head node of a genethello cluster (the manual path).
# See deploy/README.md. Validates everything before starting anything.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh source-path=SCRIPTDIR
. "$here/common.sh"

usage() {
    cat <<EOF
usage: ${0##*/} [--dry-run] [--port PORT] PRIVATE_IP [-- EXTRA_RAY_START_ARGS...]

Starts the Ray head on this machine, bound to PRIVATE_IP (this machine's
address on the cluster's private network: 10/8, 172.16/12, 192.168/16 or
127/8), with token authentication (RAY_AUTH_MODE=token), no dashboard and
no per-node metrics endpoint. The token must exist first: deploy/ray-token.sh generate.

  --dry-run    print the ray command instead of running it
  --port PORT  GCS port (default $GENETHELLO_RAY_PORT)
  -h, --help   this message

Arguments after -- go to \`ray start\` (e.g. --num-cpus=30); they may not
change the node address or the dashboard, set --address, or name an
address that is not private. Fixed ports come from the
GENETHELLO_*_PORT variables in deploy/common.sh.
EOF
}

parse_start_args 1 "$@"
((${#positional[@]} <= 1)) || {
    usage >&2
    die "one PRIVATE_IP only, got '${positional[0]}' and '${positional[1]}'"
}
ip=${positional[0]-}
[[ -n $ip ]] || {
    usage >&2
    die "missing PRIVATE_IP"
}
require_private_ip "node address" "$ip"
require_port "--port" "$port"
refuse_unsafe_extra_args "${extra[@]+"${extra[@]}"}"

require_token "$dry_run" "run deploy/ray-token.sh generate first" \
    "replace it with deploy/ray-token.sh generate --force, then install it on every worker"
require_ray "$dry_run"

run_or_print "$dry_run" "$RAY" start --head \
    --node-ip-address="$ip" \
    --port="$port" \
    --include-dashboard=false \
    --dashboard-host=127.0.0.1 \
    --ray-client-server-port="$GENETHELLO_RAY_CLIENT_SERVER_PORT" \
    "${node_port_args[@]}" \
    "${extra[@]+"${extra[@]}"}"

if ((!dry_run)); then
    cat <<EOF

Head started at $ip:$port (token auth on, dashboard off).
Workers: deploy/start-worker.sh THEIR_PRIVATE_IP $ip:$port
Run:     RAY_AUTH_MODE=token genethello evolve --config FILE --db /path/on/this/machine/run.db --address auto
EOF
fi
