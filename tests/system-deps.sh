#!/usr/bin/env bash
# What the test suite needs from the system, checked (and installed where we may) by `make test`:
# redis-server and redis-sentinel (the service tests start their own), redis-cli (Debian's
# redis-tools: the cluster tests make their Redis Cluster with redis-cli --cluster create), chromium
# (the web client's browser tests; Playwright never downloads one), nginx (the load-balancer tests) and promtool
# (Prometheus's, from Debian's prometheus package: deploy/alerts.yml is checked with it), npm
# (the browser tests inject axe-core, which `make test` installs with npm ci), and podman, runc and
# mmdebstrap (tests/deploy/test_image.py builds and starts the image on a base made from Debian's packages). Missing
# ones are installed with apt-get when it may be used (root, or sudo without a password);
# otherwise one line says what to run.
set -euo pipefail
PATH="$PATH:/usr/sbin:/sbin"  # nginx lives in sbin, off a user's PATH
declare -A package=([redis-server]=redis-server [redis-sentinel]=redis-sentinel [redis-cli]=redis-tools [chromium]=chromium [nginx]=nginx [promtool]=prometheus [npm]=npm [podman]=podman [runc]=runc [mmdebstrap]=mmdebstrap)
missing=()
for program in "${!package[@]}"; do
    if ! command -v "$program" >/dev/null 2>&1 && ! { [ "$program" = chromium ] && command -v chromium-browser >/dev/null 2>&1; }; then
        missing+=("${package[$program]}")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
    as=()
    if [ "$(id -u)" != 0 ]; then
        sudo -n true 2>/dev/null && as=(sudo -n)
    fi
    if [ "$(id -u)" = 0 ] || [ ${#as[@]} -gt 0 ]; then
        echo "make test: installing ${missing[*]}" >&2
        "${as[@]}" apt-get update -qq
        "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        exit 0
    fi
fi
echo "make test needs ${missing[*]}: install them (sudo apt-get install -y ${missing[*]}), then run make test again" >&2
exit 1
