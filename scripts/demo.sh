#!/usr/bin/env bash
# Command 1 of the README: set up, then build the bundled example portfolio.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
export PATH="$HOME/.local/bin:$PATH"
uv run kb refresh "$@"
echo
uv run kb sql "select kind, count(*) as nodes from nodes group by 1 order by 2 desc limit 12"
cat <<'NEXT'

Where to look next (all read the warehouse just built in examples/kb/.kb/):
  uv run kb status                                      what is stale and why
  uv run kb sql "select name, file, line from nodes where kind = 'route'"
  uv run kb context "how does the contact form reach zendesk"
  uv run kb mcp                                         MCP server for agents (stdio)
  uv run kb viewer                                      graph viewer on http://127.0.0.1:8765
  uv run dagster dev                                    the asset graph in the Dagster UI
  examples/kb/index/projects.yaml, examples/kb/index/decisions.md
NEXT
