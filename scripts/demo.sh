#!/usr/bin/env bash
# Command 1 of the README: set up (Python env, viewer front-end files), build the bundled
# example portfolio, and print where to look next — every printed command works as is.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"
say() { echo "demo: $*" >&2; }
say "[1/4] Python environment (uv, locked packages; the first run downloads them) …"
started=$SECONDS
source scripts/bootstrap.sh
say "      ready in $((SECONDS - started)) s"
say "[2/4] viewer front-end files (npm, pinned by viewer/package-lock.json) …"
if command -v npm >/dev/null 2>&1; then
  bash viewer/setup.sh >/dev/null
  say "      ready (viewer/static/vendor/)"
else
  say "      skipped: npm not found — install Node.js 18+, then run bash viewer/setup.sh for kb viewer"
fi
say "[3/4] building the example portfolio (examples/kb) …"
uv run kb refresh --example "$@"
say "[4/4] what was built:"
uv run kb sql --example "select kind, count(*) as nodes from nodes group by 1 order by 2 desc limit 12"
cat <<'NEXT'

Where to look next (all read the warehouse just built in examples/kb/.kb/; inside your
own KB folder, or with --kb DIR, the same commands use your KB instead of --example):
  uv run kb status --example                            what is stale and why
  uv run kb sql --example "select name, file, line from nodes where kind = 'route'"
  uv run kb context --example "how does the contact form reach zendesk"
  uv run kb mcp --example                               MCP server for agents (stdio)
  uv run kb viewer --example                            graph viewer on http://127.0.0.1:8765
  uv run kb ui --example                                the Dagster UI (dagster dev) on the instance kb refresh uses; open it with every group expanded:
  http://127.0.0.1:3000/asset-groups?expanded=global@global:sources,global@global:imports,global@global:knowledge,global@global:docs,global@global:code,global@global:graph,global@global:verification,global@global:warehouse
  examples/kb/index/projects.yaml, examples/kb/index/decisions.md
NEXT
