#!/usr/bin/env bash
# System packages the tests use, installed when missing:
#   python3-venv, python3-dev and gcc, what the README's commands need to make
#   their virtual environment and compile the Cython core (a stock Debian or
#   Ubuntu Python lacks the first two); each only when it is missing.
#   gtp-rhino (Debian's grhino + grhino-data), the GTP Othello engine that the
#   interop and yardstick tests play against. Unpacked without its GUI, as
#   its data lives in /usr/share/grhino.
#   chromium (Debian's), the headless browser of the web page's end-to-end
#   tests (tests/web); Playwright drives it and never downloads its own.
#   iproute2 (its ip command), with which the multi-machine deploy test
#   (tests/cluster/test_netns_deploy.py) builds its network namespaces.
set -euo pipefail

build_missing=()
python3 -c 'import ensurepip' >/dev/null 2>&1 || build_missing+=(python3-venv)
python3 -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' \
    >/dev/null 2>&1 || build_missing+=(python3-dev)
command -v cc >/dev/null 2>&1 || build_missing+=(gcc)
if [ ${#build_missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install_system_packages: ${build_missing[*]} missing and this is not root: install them (apt install ${build_missing[*]})" >&2
    else
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${build_missing[@]}" >/dev/null
        echo "install_system_packages: installed Debian's ${build_missing[*]}" >&2
    fi
fi

if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install_system_packages: /usr/bin/chromium is missing and this is not root; the browser tests will be skipped" >&2
    else
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
        echo "install_system_packages: installed Debian's chromium" >&2
    fi
fi

if ! command -v ip >/dev/null 2>&1 && [ ! -x /usr/sbin/ip ] && [ ! -x /sbin/ip ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install_system_packages: ip (iproute2) is missing and this is not root; the network-namespace deploy test will be skipped" >&2
    else
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
        echo "install_system_packages: installed Debian's iproute2" >&2
    fi
fi

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
