#!/usr/bin/env bash
# The shared secret of a genethello Ray cluster: Ray token authentication
# (RAY_AUTH_MODE=token). Every node, and every driver, needs the same token.
#
# Ray looks for the token in RAY_AUTH_TOKEN, then in the file named by
# RAY_AUTH_TOKEN_PATH, then in ~/.ray/auth_token. This script keeps it in a
# file (default ~/.ray/auth_token, mode 0600) and never prints it.
set -euo pipefail

prog=${0##*/}
default_path="$HOME/.ray/auth_token"
: "${SSH:=ssh}"
tmp_file=""

usage() {
    cat <<EOF
usage: $prog generate [--force] [PATH]
       $prog install [--path PATH] HOST...
       $prog env [PATH]

generate  write a new random token (256 bits, hex) to PATH, mode 0600, in a
          directory of mode 0700. PATH defaults to \$RAY_AUTH_TOKEN_PATH, else
          ~/.ray/auth_token (where Ray looks when nothing else is set).
          Refuses to replace an existing token without --force: a new token
          locks out every node still holding the old one.
install   copy the token (from --path, \$RAY_AUTH_TOKEN_PATH or
          ~/.ray/auth_token) to ~/.ray/auth_token on each HOST ([user@]host)
          over ssh, mode 0600. The token travels on ssh's stdin, never on a
          command line. \$SSH overrides the ssh command.
env       print the lines to source before \`ray start\` or a driver:
          eval "\$($prog env)"
EOF
}

die() {
    printf '%s: %s\n' "$prog" "$*" >&2
    exit 2
}

token_path() {
    # explicit PATH, then RAY_AUTH_TOKEN_PATH, then Ray's default
    if [[ -n ${1:-} ]]; then
        printf '%s\n' "$1"
    elif [[ -n ${RAY_AUTH_TOKEN_PATH:-} ]]; then
        printf '%s\n' "$RAY_AUTH_TOKEN_PATH"
    else
        printf '%s\n' "$default_path"
    fi
}

# file_mode PATH: the permission bits in octal (GNU stat, else BSD stat).
file_mode() {
    stat -c '%a' -- "$1" 2>/dev/null || stat -f '%Lp' -- "$1"
}

check_token_file() {
    local path=$1 mode
    [[ -s $path ]] || die "no token at $path; run: $prog generate"
    mode=$(file_mode "$path")
    if [[ $mode != 600 && $mode != 400 ]]; then
        printf '%s: warning: %s has mode %s; making it 0600\n' "$prog" "$path" "$mode" >&2
        chmod 600 -- "$path"
    fi
}

new_token() {
    # 32 random bytes as 64 hex digits, the same shape as Ray's own
    # `ray get-auth-token --generate`.
    local hex
    hex=$(od -An -v -tx1 -N32 /dev/urandom | tr -d ' \n')
    [[ ${#hex} -eq 64 ]] || die "could not read 32 random bytes from /dev/urandom"
    printf '%s' "$hex"
}

cmd_generate() {
    local force=0 path="" arg
    for arg in "$@"; do
        case $arg in
        --force) force=1 ;;
        -*) die "generate: unknown option '$arg'" ;;
        *)
            [[ -z $path ]] || die "generate: one PATH only"
            path=$arg
            ;;
        esac
    done
    path=$(token_path "$path")
    if [[ -e $path && $force -eq 0 ]]; then
        local mode
        mode=$(file_mode "$path")
        # This script writes 0600; Ray's single-machine runs (ray.init) leave
        # their own token at 0644. That one belongs to no cluster.
        if ((8#$mode & 8#077)); then
            mode=$(printf '%04o' "$((8#$mode))")
            die "the token at $path has mode $mode, readable by others: not one this script wrote (those are 0600) but most likely one a single-machine Ray run left behind; if no cluster uses it, replace it: $prog generate --force"
        fi
        die "a token already exists at $path; keep it (every node must share it) or replace it with --force and reinstall it everywhere"
    fi
    local dir
    dir=$(dirname -- "$path")
    (umask 077 && mkdir -p -- "$dir")
    tmp_file=$(umask 077 && mktemp "$dir/.auth_token.XXXXXX")
    trap 'rm -f -- "$tmp_file"' EXIT
    new_token >"$tmp_file"
    chmod 600 -- "$tmp_file"
    mv -f -- "$tmp_file" "$path"
    trap - EXIT
    printf 'token written to %s (mode 0600)\n' "$path"
    if [[ $path != "$default_path" ]]; then
        printf 'not Ray'"'"'s default path: export RAY_AUTH_TOKEN_PATH=%q wherever Ray runs (see: %s env %q)\n' "$path" "$prog" "$path"
    fi
}

cmd_install() {
    local path="" hosts=()
    while (($#)); do
        case $1 in
        --path)
            (($# >= 2)) || die "install: --path needs a value"
            path=$2
            shift
            ;;
        --path=*) path=${1#--path=} ;;
        -*) die "install: unknown option '$1'" ;;
        *) hosts+=("$1") ;;
        esac
        shift
    done
    ((${#hosts[@]})) || die "install: give at least one HOST"
    path=$(token_path "$path")
    check_token_file "$path"
    local host failed=0
    # The remote side writes a temporary file with umask 077, then renames
    # it, so the token is never readable by others, not even briefly.
    # shellcheck disable=SC2016  # expanded by the remote shell, not here
    local remote='umask 077 && mkdir -p ~/.ray && chmod 700 ~/.ray && t=$(mktemp ~/.ray/.auth_token.XXXXXX) && cat >"$t" && chmod 600 "$t" && mv -f "$t" ~/.ray/auth_token'
    for host in "${hosts[@]}"; do
        if $SSH "$host" "$remote" <"$path"; then
            printf 'token installed on %s:~/.ray/auth_token (mode 0600)\n' "$host"
        else
            printf '%s: failed to install the token on %s\n' "$prog" "$host" >&2
            failed=1
        fi
    done
    return "$failed"
}

cmd_env() {
    (($# <= 1)) || die "env: at most one PATH"
    local path
    path=$(token_path "${1:-}")
    check_token_file "$path"
    printf 'export RAY_AUTH_MODE=token\n'
    if [[ $path != "$default_path" ]]; then
        printf 'export RAY_AUTH_TOKEN_PATH=%q\n' "$path"
    fi
}

(($#)) || {
    usage >&2
    exit 2
}
command=$1
shift
case $command in
generate) cmd_generate "$@" ;;
install) cmd_install "$@" ;;
env) cmd_env "$@" ;;
-h | --help | help) usage ;;
*)
    usage >&2
    die "unknown command '$command'"
    ;;
esac
