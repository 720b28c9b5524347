"""Scoring of the RealWorld matrix (`bench/realworld.py`): our own scorer, to the rules of the
benchmark's `score.py` and `answers.py`, so it runs on any benchmark folder of that layout
(the shared one, or a small fixture in `tests/bench/`).

- `truth`: the benchmark folder (repos.yaml + truth/*.yaml), the 19 endpoints, path normalisation;
- `graph`: routes, call sites, CALLS bridges, precision and leaks from the published rows;
- `answers`: what `kb_trace` over MCP says from each truth start, judged as an agent would read it;
- `report`: the per-framework table and the summary lines.
"""
