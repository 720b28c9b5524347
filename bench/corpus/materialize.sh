#!/usr/bin/env bash
# Rebuild every component of the development portfolio from the local mirrors (git only).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec uv run --frozen python bench/corpus/materialize.py "$@"
