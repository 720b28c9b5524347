#!/usr/bin/env bash
# Command 2 of the README (and what CI runs): set up everything the tests need, then
# run the whole suite with `uv run pytest`. Installs uv, the locked Python env, the
# viewer's npm packages, Debian's chromium (for the viewer tests), Debian's redis-server
# (the Celery broker of the scale-out test; started by the test, stopped after) and warms the MCP
# Inspector CLI in npm's cache. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
export PATH="$HOME/.local/bin:$PATH"
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test: installing Debian's chromium for the viewer tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
fi
if ! command -v redis-server >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test: installing Debian's redis-server for the celery scale-out test" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null
fi
if ! command -v node >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test: installing Debian's nodejs and npm (the viewer, the metamorphic oracle's JS half)" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm) >/dev/null
fi
if command -v npm >/dev/null 2>&1; then
  bash viewer/setup.sh >/dev/null
  npm exec --yes --package=@modelcontextprotocol/inspector@0.15 -- true >/dev/null 2>&1 || true
fi
exec uv run pytest -q "$@"
