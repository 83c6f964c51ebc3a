#!/usr/bin/env bash
# PostgreSQL for the store contract tests in CI. The tests start a throwaway cluster of their own
# (test/pg/cluster.ts: initdb + pg_ctl on a loopback port in a temporary folder), so only the
# server binaries are needed: Debian's postgresql package is installed when initdb is missing, told
# not to create and start its own "main" cluster.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to install postgresql with apt-get" >&2; exit 1
  fi
}

if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "== postgresql present: $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | head -1 || command -v initdb)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "initdb is missing and apt-get is not available: install PostgreSQL (server binaries), or the PostgreSQL tests fail under CI=true" >&2
  exit 1
fi
echo "== installing postgresql (apt-get)"
if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
  as_root mkdir -p /etc/postgresql-common
  echo "create_main_cluster = false" | as_root tee /etc/postgresql-common/createcluster.conf >/dev/null
fi
as_root apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
ls -d /usr/lib/postgresql/*/bin
