"""Parameters a test framework fills by name: a pytest test or fixture that takes a
parameter `db` gets what the fixture function `db` returns (or yields), the fixture found
in the same module or in a shared file (`conftest.py`) of its folder or a folder above
(https://docs.pytest.org/en/stable/how-to/fixtures.html), a model's `fixtures:`."""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from extractors.engine.values import Ext, Func, Value, choice

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator
    from extractors.lang.base import Binding
    from extractors.models.schema import Fixtures

MAX_FIXTURE_DEPTH = 3  # fixtures taking fixtures, followed this far


@dataclass
class FixtureIndex:
    """The component's fixtures: name -> (file, function, whether the file is shared)."""

    by_name: dict[str, list[tuple[str, Func, bool]]] = field(default_factory=dict)
    test_files: tuple[str, ...] = ()  # globs of the modules whose functions are filled


def fixture_value(ev: Evaluator, index: FixtureIndex, rel: str, b: Binding) -> Value | None:
    """What the fixture a parameter of a test file's function names gives, when one is
    visible from `rel`."""
    candidates = index.by_name.get(b.name)
    if not candidates or ev.fixture_depth >= MAX_FIXTURE_DEPTH:
        return None
    if not any(fnmatch.fnmatchcase(posixpath.basename(rel), p) for p in index.test_files):
        return None  # application code: its parameters are its callers'
    here = posixpath.dirname(rel)
    visible = [(r, fn) for r, fn, shared in candidates
               if r == rel or (shared and _above(posixpath.dirname(r), here))]  # fmt: skip
    if not visible:
        return None
    visible.sort(key=lambda item: (item[0] != rel, -len(item[0])))  # own module, nearest file
    fn = visible[0][1]
    if fn.site.rel == rel and fn.site.start <= b.node.start_byte < fn.site.end:
        return None  # the fixture's own parameter of the same name (overriding a fixture)
    ev.fixture_depth += 1
    try:
        outs = ev.apply(fn, [])[0] or _yielded(ev, fn)
    finally:
        ev.fixture_depth -= 1
    # one object for every test that takes the fixture: what the fixture's own code (or the
    # factory it calls) configured on it, and what it holds, stays known to each test
    return choice(outs) if outs else None


def fixture_index(ev: Evaluator, specs: list[Fixtures]) -> FixtureIndex:
    """Every fixture of the component, by the name a parameter asks for."""
    decorators = {d for spec in specs for d in spec.decorators}
    shared = {s for spec in specs for s in spec.shared}
    out = FixtureIndex(test_files=tuple(sorted({f for spec in specs for f in spec.files})))
    marks = {d.rsplit(".", 1)[-1].encode() for d in decorators}
    program = ev.program
    for rel in program.rels():
        a = program.adapter(rel)
        if a is None or rel not in program.py or not any(m in a.sf.data for m in marks):
            continue
        for decorator, target in a.decorated():
            callee, view = a.decorator_callee(decorator)
            value = ev.eval(rel, callee, None)
            if not (isinstance(value, Ext) and value.dotted in decorators) or not a.is_function(
                target
            ):
                continue
            name = a.function(target).name
            if view is not None and "name" in view.kwargs:  # `@pytest.fixture(name="db")`
                given = ev.eval(rel, view.kwargs["name"], None)
                name = str(getattr(given, "value", name))
            fn = Func(a.site(target), None, None, a.function(target).name)
            out.by_name.setdefault(name, []).append((rel, fn, posixpath.basename(rel) in shared))
    return out


def _above(folder: str, here: str) -> bool:
    return folder == "" or here == folder or here.startswith(folder + "/")


def _yielded(ev: Evaluator, fn: Func) -> list[Value]:
    """What a generator fixture yields (`yield session`), evaluated in the fixture."""
    a = ev.program.adapter(fn.site.rel)
    node = a.node_at(fn.site) if a is not None else None
    if a is None or node is None:
        return []
    return [ev.eval(fn.site.rel, y, None) for y in a.yielded(a.function(node))]
