#!/usr/bin/env bash
# Shared set-up for scripts/demo.sh and scripts/test.sh: uv (from PyPI) and the locked
# Python environment. Needs only Python >= 3.11 with pip. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v uv >/dev/null 2>&1; then
  echo "bootstrap: installing uv with pip" >&2
  python3 -m pip install --quiet --disable-pip-version-check uv 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --user uv
  export PATH="$HOME/.local/bin:$PATH"
fi
# PYTHONDONTWRITEBYTECODE is set on these machines: compile once at install, or every
# process recompiles Dagster from source (seconds per `kb` call).
uv sync --frozen --quiet --compile-bytecode
python_bin=$(uv run --frozen python -c 'import sys; print(sys.executable)')
"$python_bin" -m compileall -q -j 0 vocab kb extractors warehouse doc_context verification assets pipeline cli mcp_server viewer >/dev/null 2>&1 || true
