#!/usr/bin/env bash
# systemd-analyze for test/cli/systemd.test.ts, which verifies the unit `xpay systemd` prints.
# `systemd-analyze verify` reads the unit file only: it works in a container without systemd as
# PID 1 (it needs the ExecStart binary to exist, which the test's unit points at). Debian's
# systemd package brings it; nothing is started.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to install systemd with apt-get" >&2; exit 1
  fi
}

if command -v systemd-analyze >/dev/null 2>&1; then
  echo "== systemd-analyze present: $(systemd-analyze --version | head -1)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "systemd-analyze is missing and apt-get is not available: install systemd, or the unit test fails under CI=true" >&2
  exit 1
fi
echo "== installing systemd (apt-get) for systemd-analyze"
as_root apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends systemd
systemd-analyze --version | head -1
