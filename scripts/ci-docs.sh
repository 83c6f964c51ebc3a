#!/usr/bin/env bash
# What the guides' examples use, for test/docs/run-guides.test.ts (every ```sh block of README and
# the guides, run as printed) and the README walkthrough's paste test: jq, curl and openssl in the
# examples, zsh for the paste into macOS's shell. Installed with apt-get when one is missing.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "need root (or sudo) to install $* with apt-get" >&2; exit 1
  fi
}

missing=()
for tool in jq curl openssl zsh; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -eq 0 ]; then
  echo "== the guides' tools are present: jq curl openssl zsh"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing ${missing[*]} and apt-get is not available: install them, or the guide tests fail" >&2
  exit 1
fi
echo "== installing ${missing[*]} (apt-get)"
as_root apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
