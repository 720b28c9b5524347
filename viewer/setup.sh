#!/usr/bin/env bash
# Install the viewer's front-end dependencies from the npm registry (pinned by
# package-lock.json) and bundle them into static/vendor/. Idempotent: `npm ci` runs
# only when the lock file is newer than the installed tree. No network at run time.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null 2>&1; then
  echo "viewer/setup.sh: npm not found — install Node.js 18+ (e.g. apt-get install nodejs npm)" >&2
  exit 1
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent vendor
test -s static/vendor/d3-force.js
echo "viewer vendor files ready: $(pwd)/static/vendor/d3-force.js"
