#!/usr/bin/env bash
# Join this machine to a genethello Ray cluster as a worker node (the manual
# path). See deploy/README.md. Validates everything before starting anything.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh source-path=SCRIPTDIR
. "$here/common.sh"

usage() {
    cat <<EOF
usage: ${0##*/} [--dry-run] PRIVATE_IP|auto HEAD_IP[:PORT] [-- EXTRA_RAY_START_ARGS...]

Starts a Ray worker node on this machine, bound to PRIVATE_IP, joining the
head at HEAD_IP:PORT (default port $GENETHELLO_RAY_PORT), with token
authentication (RAY_AUTH_MODE=token). Both addresses must be private
(10/8, 172.16/12, 192.168/16 or 127/8). "auto" takes the source address
this machine uses to reach the head (ip route get HEAD_IP), which must
itself be private. The head's token must already be on this machine:
deploy/ray-token.sh install THIS_HOST (run on the head).

  --dry-run    print the ray command instead of running it
  -h, --help   this message

Arguments after -- go to \`ray start\` (e.g. --num-cpus=14); they may not
change the node address or the dashboard, set --address, or name an
address that is not private. The dashboard runs on the head
only, and the head keeps it off.
EOF
}

parse_start_args 0 "$@"

((${#positional[@]} == 2)) || {
    usage >&2
    die "expected PRIVATE_IP and HEAD_IP[:PORT], got ${#positional[@]} argument(s)"
}
ip=${positional[0]}
head=${positional[1]}

if [[ $head == *:* ]]; then
    head_ip=${head%:*}
    head_port=${head##*:}
else
    head_ip=$head
    head_port=$GENETHELLO_RAY_PORT
fi
require_private_ip "head address" "$head_ip"
require_port "head port" "$head_port"

if [[ $ip == auto ]]; then
    command -v ip >/dev/null 2>&1 || die "'auto' needs the ip command (iproute2); give PRIVATE_IP instead"
    ip=$(ip -o route get "$head_ip" | awk '{for (i = 1; i < NF; i++) if ($i == "src") { print $(i + 1); exit }}')
    [[ -n $ip ]] || die "could not find the address this machine uses to reach $head_ip; give PRIVATE_IP instead"
fi
require_private_ip "node address" "$ip"
refuse_unsafe_extra_args "${extra[@]+"${extra[@]}"}"

require_token "$dry_run" "on the head run: deploy/ray-token.sh install $(hostname)" \
    "on the head run: deploy/ray-token.sh install $(hostname)"
require_ray "$dry_run"

# --include-dashboard and --port are head-only flags: `ray start` refuses
# them on a worker.
run_or_print "$dry_run" "$RAY" start \
    --address="$head_ip:$head_port" \
    --node-ip-address="$ip" \
    "${node_port_args[@]}" \
    "${extra[@]+"${extra[@]}"}"
