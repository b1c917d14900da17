#!/usr/bin/env bash
# System packages the tests use, installed when missing:
#   gtp-rhino (Debian's grhino + grhino-data), the GTP Othello engine that the
#   interop and yardstick tests play against. Unpacked without its GUI, as
#   its data lives in /usr/share/grhino.
set -euo pipefail

if command -v gtp-rhino >/dev/null 2>&1 || [ -x /usr/games/gtp-rhino ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "install_system_packages: gtp-rhino is missing and this is not root; its tests will be skipped" >&2
    exit 0
fi
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
apt-get update -qq
(cd "$workdir" && apt-get download -qq grhino grhino-data)
for deb in "$workdir"/grhino_*.deb "$workdir"/grhino-data_*.deb; do
    dpkg -x "$deb" /
done
echo "install_system_packages: installed gtp-rhino from Debian's grhino" >&2
