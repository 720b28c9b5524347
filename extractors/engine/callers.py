"""The callers of a component function, for the wrapper fixed point (recognize.py).

Candidates come from one index of every call by the name it calls (its terminal name, and
the names a local alias of a function mentions); a function is known by its own name, the
names it is imported as and the variables a factory's result is kept in. Each candidate is
confirmed by evaluating its callee; a library that calls the function itself (an
`InvokeEvent`) is a caller too. Kept apart from the pass: it is an index, built once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from tree_sitter import Node as TsNode

from extractors.engine.values import (
    Choice,
    Func,
    Scope,
    Site,
    Value,
)

MAX_CALLERS = 200  # callers of one function read
NAMELESS = "\0call"  # the call index's key of calls without a callee name

_WORDS = re.compile(r"[A-Za-z_$][\w$]*")  # the names an alias's value mentions


class CallerIndex:
    """`Recognizer`'s callers of a function, found through the call index."""

    def callers(self, scope: Scope) -> list[tuple[str, TsNode | None, tuple]]:
        """(rel, call node, extra) of every call of the function at `scope`; a library's own
        invocation has no node and carries its arguments."""
        found = self._callers.get(scope)
        if found is not None:
            return found
        self._callers[scope] = []  # recursion guard
        a = self.program.adapter(scope.rel)
        node = a.node_of(scope) if a else None
        out: list[tuple[str, TsNode | None, tuple]] = []
        if a is not None and node is not None and a.is_function(node):
            spot = (scope.rel, scope.start, scope.end)
            names = self.names_of(scope.rel, node)
            out += [(rel, call, ()) for rel, call in self._named_calls_of(names, spot)]
            # calls without a callee name (`(0, m.f)(x)`, `a[k](x)`, `make()(x)`): indexed
            # the same way, under the index's nameless key
            out += [(rel, call, ()) for rel, call in self._by_spot(NAMELESS, False).get(spot, ())]
            for event in self.invokes:
                if (
                    isinstance(event.fn, Func)
                    and (event.fn.site.start, event.fn.site.end) == (scope.start, scope.end)
                    and event.fn.site.rel == scope.rel
                ):
                    out.append((event.site.rel, None, (event,)))
        self._callers[scope] = out
        return out

    def names_of(self, rel: str, fn: TsNode) -> set[str]:
        a = self.program.adapter(rel)
        names = {a.function(fn).name} - {""} if a is not None else set()
        mod = self.program.js.get(rel)
        if mod is not None:
            exported = {e for e, local in mod.exports.items() if local in names}
            if (
                mod.consts.get("default") is not None
                and mod.consts["default"].start_byte
                <= fn.start_byte
                < mod.consts["default"].end_byte
            ):
                exported.add("default")
            for local, imported in self._importers().get(rel, ()):
                if imported in exported or imported == "*":
                    names.add(local)
        holder = a.function_at(fn) if a is not None else None
        if holder is not None:  # a function returned by a factory: the factory's results
            names |= self._results_of(a.function(holder).name)
        return names

    def _importers(self) -> dict[str, list[tuple[str, str]]]:
        """file -> (local name, imported name) of every import of it, indexed once."""
        if self._by_target is None:
            self._by_target = defaultdict(list)
            for other in self.program.js.values():
                for local, binding in other.imports.items():
                    if binding.target is not None:
                        self._by_target[binding.target].append((local, binding.imported))
        return self._by_target

    def _results_of(self, factory: str) -> frozenset[str]:
        """The names the results of calls named `factory` are kept in, once per name."""
        if not factory:
            return frozenset()
        if factory not in self._results:
            self._results[factory] = frozenset(self._results_now(factory))
        return self._results[factory]

    def _results_now(self, factory: str) -> set[str]:
        out: set[str] = set()
        for rel, call in self._candidates({factory}):
            parent = call.parent
            while parent is not None and parent.type in {
                "await_expression",
                "await",
                "parenthesized_expression",
            }:
                parent = parent.parent
            if parent is None:
                continue
            target = parent.child_by_field_name("name") or parent.child_by_field_name("left")
            if target is None:
                continue
            a = self.program.adapter(rel)
            text = a.text(target) if a is not None else ""
            out |= {w.strip("{}[] ").split(":")[-1].strip() for w in text.split(",")} - {""}
        return out

    def _call_index(self) -> dict[str, list[tuple[str, TsNode]]]:
        """Every call of the component by its callee's name (`\0call`: calls without one),
        built once; the calls of a local holding a function under each name it mentions."""
        if self._by_name is None:
            index: dict[str, list[tuple[str, TsNode]]] = defaultdict(list)
            for rel in self.program.rels():
                a = self.program.adapter(rel)
                for call in a.calls() if a is not None else []:
                    view = a.call_view(call)
                    if view is None:
                        continue
                    name = a.terminal(view.callee)
                    index[name or NAMELESS].append((rel, call))
                    if name and view.callee.type == "identifier":
                        self._index_binding(rel, a, call, a.resolve(name, view.callee))
            self._by_name = dict(index)
            for rel, call, text in self._aliases:  # each alias under the names it mentions
                for word in set(_WORDS.findall(text)):
                    self._alias_words[word].append((rel, call))
        return self._by_name

    def _index_binding(self, rel: str, a, call: TsNode, binding) -> None:
        """What a plain name called is, seen once without evaluating: a function or class
        declared where it is read (bundled code declares `e`, `t`, `n` in every scope), or
        a local holding a function (`const f = a ? x.g : x.h; f()`), indexed under the
        names its value mentions."""
        if binding is None:
            return
        if binding.kind in ("function", "class"):
            node = binding.node
            self._declared[call.id] = (rel, node.start_byte, node.end_byte)
        elif binding.kind in ("decl", "assign") and binding.value is not None:
            self._aliases.append((rel, call, a.text(binding.value)))

    def _named_calls_of(self, names: set[str], spot: tuple[str, int, int]) -> list:
        """The calls by one of `names` whose callee is the function at `spot`, in the order
        of the name index: each name's calls, then the calls of locals whose value mentions
        one of the names (not already among them)."""
        out = [c for name in sorted(names) for c in self._by_spot(name, False).get(spot, ())]
        added = set(out)
        for name in sorted(names):
            for found in self._by_spot(name, True).get(spot, ()):
                if found not in added:
                    added.add(found)
                    out.append(found)
        return out

    def _by_spot(self, name: str, aliases: bool) -> dict[tuple[str, int, int], list]:
        """The calls under `name` in the call index (`NAMELESS`: those without a callee
        name; with `aliases`, the calls of the locals whose value mentions it), by the
        function each can call: every callee evaluated once, however many functions of that
        name ask (bundled code names thousands `e`)."""
        key = (name, aliases)
        found = self._spots.get(key)
        if found is not None:
            return found
        found = {}
        calls = self._alias_words.get(name, ()) if aliases else self._call_index().get(name, ())
        for rel, call in calls:
            for spot in self._callee_spots(rel, call):
                found.setdefault(spot, []).append((rel, call))
        self._spots[key] = found
        return found

    def _callee_spots(self, rel: str, call: TsNode) -> tuple[tuple[str, int, int], ...]:
        declared = self._declared.get(call.id)
        if declared is not None:  # its name is declared a function where it is read
            return (declared,)
        b = self.program.adapter(rel)
        view = b.call_view(call) if b is not None else None
        if view is None:
            return ()
        funcs = _funcs(self.ev.eval(rel, view.callee, None))
        return tuple(dict.fromkeys((f.site.rel, f.site.start, f.site.end) for f in funcs))

    def _candidates(self, names: set[str], nameless: bool = True) -> list[tuple[str, TsNode]]:
        by_name = self._call_index()
        out = [c for name in sorted(names) for c in by_name.get(name, ())]
        seen = set(out)
        for name in sorted(names):
            for found in self._alias_words.get(name, ()):
                if found not in seen:
                    seen.add(found)
                    out.append(found)
        return out + list(by_name.get(NAMELESS, ())) if nameless else out


def _funcs(callee: Value) -> Iterator[Func]:
    """The functions a callee can be (each option of a choice)."""
    if isinstance(callee, Func):
        yield callee
    elif isinstance(callee, Choice):
        for option in callee.options:
            yield from _funcs(option)


def func_in(callee: Value, target: Site) -> Func | None:
    """The function at `target` among those the callee can be, else None."""
    spot = (target.rel, target.start, target.end)
    return next((f for f in _funcs(callee) if (f.site.rel, f.site.start, f.site.end) == spot), None)
