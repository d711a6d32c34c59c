#!/usr/bin/env bash
# Installs the machine packages Earshot's tests use, when they are missing and we are root:
# Debian's Chromium (browser tests) and PostgreSQL server binaries (the PostgreSQL pass).
# Without root it only says what is missing; the tests then skip loudly (or fail under CI).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "*** missing system packages: ${missing[*]} (install them with apt-get as root)" >&2
  exit 0
fi
echo "installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
