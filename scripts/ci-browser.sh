#!/usr/bin/env bash
# The cashier page's real-browser test (e2e/, `npm run test:e2e`) in CI. Installs Debian's chromium
# when /usr/bin/chromium is missing (playwright-core brings no browser of its own), plus a CJK font
# so the screenshots it keeps are readable, then runs the test. `--install-only` stops after the
# install. The screenshots' directory is printed by the test ("e2e artifacts: ...").
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to install chromium with apt-get" >&2; exit 1
  fi
}

if [ ! -x "$CHROMIUM" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$CHROMIUM is missing and apt-get is not available: install chromium, or set CHROMIUM_PATH" >&2
    exit 1
  fi
  echo "== installing chromium (apt-get)"
  as_root apt-get update
  # fonts-noto-cjk: without a CJK font the page's Chinese text renders as boxes in screenshots.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-noto-cjk
fi
"$CHROMIUM" --version || true

if [ "${1:-}" = "--install-only" ]; then exit 0; fi

echo "== browser test (npm run test:e2e)"
CHROMIUM_PATH="$CHROMIUM" npm run test:e2e
