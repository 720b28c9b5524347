"""Metamorphic rewrites: a pattern is learnt when its facts survive a rewrite that does not
change what the program does (issue 25 section 2).

`edits` renders byte edits and records where every original line went; `syntax` parses
with tree-sitter (our own parse, not the extractors'); `families/` holds one module per
rewrite family, each checking its own preconditions and counting the sites it skips;
`facts` reads the five fact kinds from a build; `scorer` maps the facts before through the
rewrite and counts the ones that come out again; `runner` copies, rewrites, builds and
reports (entry: bench/metamorphic.py).
"""
