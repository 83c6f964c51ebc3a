#!/usr/bin/env bash
# What `npm run test:release` needs beyond Node and npm, from Debian (or Ubuntu) packages:
# qemu-user and libc6-arm64-cross run the linux-arm64 file (qemu-aarch64 -L /usr/aarch64-linux-gnu),
# musl gives /lib/ld-musl-x86_64.so.1 for the linux-x64-musl file. sha256sum is coreutils.
# Used by .ci/run and .github/workflows/release.yml; installs only what is missing.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to install qemu-user, libc6-arm64-cross and musl with apt-get" >&2; exit 1
  fi
}

if command -v qemu-aarch64 >/dev/null 2>&1 && [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] && [ -e /lib/ld-musl-x86_64.so.1 ]; then
  echo "== release test tools present: $(qemu-aarch64 --version | head -1)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "qemu-aarch64, the arm64 C library or musl is missing and apt-get is not available: the release test fails under CI=true" >&2
  exit 1
fi
echo "== installing qemu-user, libc6-arm64-cross, musl (apt-get)"
as_root apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends qemu-user libc6-arm64-cross musl
qemu-aarch64 --version | head -1
