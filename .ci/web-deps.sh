#!/usr/bin/env bash
# What the web frontend's Chromium test needs: Debian's chromium and playwright-core, pinned by
# web/e2e/package-lock.json. Called by .ci/run; installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && apt-get install -y -qq chromium
fi
if [ -f web/e2e/package-lock.json ]; then
  (cd web/e2e && npm ci --no-audit --no-fund --silent)
else
  (cd web/e2e && npm install --no-audit --no-fund --silent)
fi
