"""The heuristic tier for routes no model claims: a verb-named method (`get`, `post` …)
called on an object no model knows, with a path-shaped first argument (`'/orders/:id'`) and
a function among the rest — `server.get('/x', auth, handler)`, or Python's
`@api.get('/x')` over a function — is a route at `confidence: low` (framework `heuristic`).
Test and mock folders are not read, nor a file importing a library that fakes an HTTP
server (extractors/models/mocks.yaml: a mock's routes serve no one), nor a call any model
already read."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from extractors.engine.evaluate import Evaluator
from extractors.engine.events import Event, RouteEvent
from extractors.engine.values import Concat, Ext, Func, Lit, Obj, Site, Value
from extractors.models.runtime import Library
from vocab.safe_yaml import load as load_yaml

MODEL = "heuristic"
VERBS = {"get", "post", "put", "patch", "delete", "del", "options", "head", "all", "any"}
ALIASES = {"DEL": "DELETE", "ALL": "ANY"}
FUNCTIONS = {"arrow_function", "function_expression", "function", "lambda"}
NOT_SERVED = re.compile(  # test, mock and story folders (also `app-e2e/`), files and modules
    r"(^|/)([^/]*[-_.])?(tests?|__tests__|__mocks__|mocks?|spec|e2e|cypress|playwright|"
    r"fixtures?|stories)([-_.][^/]*)?(/|$)"
    r"|\.(test|spec|stories|mock|cy)\.[a-z]+$|(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$"
)
PATH = re.compile(r"^/[\w\-./:{}<>\[\]*$?@+]*$")
MOCKS = Path(__file__).parents[1] / "models" / "mocks.yaml"


@cache
def mock_packages() -> frozenset[str]:
    """Packages that fake an HTTP server (miragejs, msw …): a file importing one is not read."""
    raw = load_yaml(MOCKS.read_text(encoding="utf-8")) or {}
    return frozenset(str(n) for names in raw.values() for n in names or ())


def _imports_mock(program, rel: str) -> bool:
    mocks = mock_packages()
    mod = program.js.get(rel)
    if mod is not None:
        return any((b.package or b.spec) in mocks for b in mod.imports.values())
    py = program.py.get(rel)
    return py is not None and any(b.spec.split(".")[0] in mocks for b in py.bindings.values())


def heuristic_events(ev: Evaluator, library: Library, claimed: set[tuple]) -> list[Event]:
    """Routes of unknown routers; `claimed`: (rel, start, end) of calls a model read."""
    program = ev.program
    out: list[Event] = []
    for rel in program.rels():
        if NOT_SERVED.search(rel) or _imports_mock(program, rel):
            continue
        a = program.adapter(rel)
        if a is None:
            continue
        decorated = {(e.start_byte, e.end_byte): t for e, t in a.decorated()}
        for node in a.calls():
            if (rel, node.start_byte, node.end_byte) in claimed:
                continue
            view = a.call_view(node)
            if view is None or view.callee.type not in ("member_expression", "attribute"):
                continue
            verb = (a.terminal(view.callee) or "").lower()
            if verb not in VERBS or not view.args:
                continue
            if view.args[0].type not in ("string", "template_string"):
                continue
            path = ev.eval(rel, view.args[0], None)
            if not _path_shaped(path) or _known(ev, library, rel, view.callee):
                continue
            target = decorated.get((node.start_byte, node.end_byte))
            if target is not None:  # `@api.get('/x')` over a function
                handler = ev.eval(rel, target, None) if a.is_function(target) else None
                chain: list = []
            else:
                fns = [(ev.eval(rel, n, None), a.site(n)) for n in view.args[1:]]
                fns = [(v, s) for (v, s), n in zip(fns, view.args[1:], strict=True)
                       if isinstance(v, Func) or n.type in FUNCTIONS]  # fmt: skip
                if not fns:
                    continue
                handler, chain = fns[-1][0], fns[:-1]
            if not isinstance(handler, Func):
                continue
            method = ALIASES.get(verb.upper(), verb.upper())
            site = a.site(node)
            router = Obj(MODEL, "app", Site(f"<{MODEL}>/{rel}", 0, 0))
            out.append(RouteEvent(MODEL, router, Lit(method), path, handler, tuple(chain), site))
    return out


def _path_shaped(value: Value) -> bool:
    first = value.parts[0] if isinstance(value, Concat) else value
    if not isinstance(first, Lit) or not isinstance(first.value, str):
        return False
    text = first.value
    return text.startswith("/") and not text.startswith("//") and bool(PATH.match(text))


def _known(ev: Evaluator, library: Library, rel: str, callee) -> bool:
    """The receiver is an object some model knows (a client's `get`, a router a model
    reads): not this tier's."""
    receiver = callee.child_by_field_name("object")
    if receiver is None:
        return True
    value = ev.eval(rel, receiver, None)
    if isinstance(value, Obj):
        return True
    return isinstance(value, Ext) and library.claim(value) is not None
