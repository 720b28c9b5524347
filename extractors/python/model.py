"""The Python module tables the extractors share (`ctx.shared.py`): modules with their
imports and symbols, and the component's module names."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from extractors.source import SourceFile


@dataclass
class Binding:
    spec: str  # as written: `app.services.orders`, `.store`
    target: str | None  # rel of the resolved module file
    name: str | None  # imported attribute of that module; None when the binding is the module
    line: int


@dataclass
class PyModule:
    rel: str
    sf: SourceFile
    modname: str
    file_id: str
    bindings: dict[str, Binding] = field(default_factory=dict)
    symbols: dict[str, str] = field(default_factory=dict)  # dotted local name → node id
    consts: dict[str, str] = field(default_factory=dict)  # NAME = "literal"
    _ranges: list[tuple[int, int, str]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _reach: list[int] = field(default_factory=list)  # max end of _ranges[: i + 1]

    def enclosing(self, byte: int) -> str:
        """Innermost symbol whose span holds `byte` (the last such range in start order),
        else the code_file. Scans back from the last range starting at or before `byte`
        and stops where no earlier range reaches it, so a call costs the nesting depth,
        not the number of symbols of the file."""
        ranges = self._ranges
        if len(self._starts) != len(ranges):
            self._starts = [r[0] for r in ranges]
            reach, top = [], -1
            for r in ranges:
                top = r[1] if r[1] > top else top
                reach.append(top)
            self._reach = reach
        reach = self._reach
        i = bisect.bisect_right(self._starts, byte) - 1
        while i >= 0 and reach[i] > byte:
            if byte < ranges[i][1]:
                return ranges[i][2]
            i -= 1
        return self.file_id


def module_names(rels: list[str], root_package: tuple[str, ...] = ()) -> dict[str, str]:
    """dotted module name → rel, from package roots and from the component root; when the
    component root is itself a package (`root_package`: its dotted name, found by
    `root_package_of`), also under that name (`from shop.paths import X` in `shop/`)."""
    found: dict[str, str] = {}
    names = set(rels)
    for rel in sorted(rels):
        parts = rel[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        folders = rel.split("/")[:-1]
        top = len(folders)
        while top > 0 and "/".join(folders[:top]) + "/__init__.py" in names:
            top -= 1
        for start in sorted({top, 0}, reverse=True):
            if parts[start:]:
                found.setdefault(".".join(parts[start:]), rel)
        if root_package and top == 0:  # a package from the component root up
            found.setdefault(".".join((*root_package, *parts)), rel)
    return found


def root_package_of(root: Path) -> tuple[str, ...]:
    """The dotted name of the package the component root is, when it is one (it holds an
    `__init__.py`): its folder's name, under each package folder above it."""
    names: list[str] = []
    folder = root.resolve()
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        names.insert(0, folder.name)
        folder = folder.parent
    return tuple(names)


class Resolver:
    """The component's Python module names: which file a dotted module name or a relative
    import is (what a name *is* across modules is the engine's: engine/program.py)."""

    def __init__(self, mods: dict[str, PyModule], by_name: dict[str, str]):
        self.mods = mods
        self.by_name = by_name  # dotted module name -> rel (`module_names`)

    def absolute(self, mod: PyModule, spec: str) -> str | None:
        """Dotted module name a (possibly relative) spec refers to."""
        if not spec.startswith("."):
            return spec
        dots = len(spec) - len(spec.lstrip("."))
        package = (
            mod.modname.split(".")
            if mod.rel.endswith("__init__.py")
            else mod.modname.split(".")[:-1]
        )
        if dots - 1 > len(package):
            return None
        base = package[: len(package) - (dots - 1)]
        rest = spec[dots:]
        return ".".join([*base, rest] if rest else base) or None
