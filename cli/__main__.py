"""`python -m cli …`: the same as the installed `kb` script."""

from cli.main import run

run()
