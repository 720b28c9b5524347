"""Progress on long work, drawn with `rich` on a terminal: the phase lines of a command,
components extracted (n/N, the current one, elapsed) and import pages.

Off (plain phase lines only, no bars) when stdout is not a terminal — a pipe, a log, a
hook — and silent with `--quiet`. The loops report through `kb.progress`; this module
only draws.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kb import progress


class _Plain:
    """Not a terminal: the phase lines as plain text, nothing per component."""

    def __init__(self, quiet: bool):
        self.quiet = quiet

    def say(self, message: str) -> None:
        if not self.quiet:
            print(message, flush=True)

    def event(self, name: str, fields: dict[str, Any]) -> None:
        pass


class _Rich:
    """A terminal: phase lines above a live bar for components and a counter for pages."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.console = Console()
        self.bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[current]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.task = None
        self.pages = None

    def say(self, message: str) -> None:
        self.console.print(message, highlight=False, markup=False)

    def event(self, name: str, fields: dict[str, Any]) -> None:
        if name == "extract":
            self.task = self.bar.add_task("components", total=fields["total"], current="")
        elif name == "extracted" and self.task is not None:
            note = " (current, reused)" if fields.get("reused") else ""
            self.bar.update(self.task, advance=1, current=f"{fields['key']}{note}")
        elif name == "page":
            if self.pages is None:
                self.pages = self.bar.add_task("import pages", total=None, current="")
            state = "fetched" if fields.get("fetched") else "unchanged"
            self.bar.update(
                self.pages, advance=1, current=f"{fields['source']} {fields['name']} ({state})"
            )


@contextmanager
def shown(quiet: bool = False) -> Iterator[_Plain | _Rich]:
    """The display for one command: `.say(line)` for phases; the loops' events are drawn
    while inside. A terminal gets `rich`; anything else plain lines (none with quiet)."""
    display: _Plain | _Rich = _Rich() if sys.stdout.isatty() and not quiet else _Plain(quiet)
    previous = progress.set_sink(display.event)
    try:
        if isinstance(display, _Rich):
            with display.bar:
                yield display
        else:
            yield display
    finally:
        progress.set_sink(previous)


def add_quiet_option(parser) -> None:
    parser.add_argument(
        "--quiet", action="store_true", help="no progress lines (results and errors only)"
    )
