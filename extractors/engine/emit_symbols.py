"""The symbols the emitter attaches edges to: a function's own symbol node (else a new
`<anonymous>` or nested-name one), the symbol at a file and line, the function a route
runs through its wrappers, and the expression a package builds a handler from. One index
of the component's symbols, shared by routes, middleware and settings.
"""

from __future__ import annotations

from extractors.engine.values import (
    Choice,
    Ext,
    Func,
    Site,
    Value,
)
from extractors.js.resolve import package_name


class Symbols:
    """`Emitter`'s symbol nodes."""

    def symbol_for(self, fn: Func) -> str:
        """The symbol node of a function (the component's own symbol, else a new
        `<anonymous>` one at its line)."""
        symbols = self._symbol_index()
        site = fn.site
        # a symbol made here for another function on this line is not this one's
        found = [(end, i) for end, i in symbols.get((site.rel, site.line), ())
                 if self._symbol_sites.get(i, site) == site]  # fmt: skip
        if found:
            exact = [i for end, i in found if end == site.end_line] or [found[0][1]]
            # several on one line (`{ a: () => …, b: () => … }`, and the object itself):
            # the one named like the function
            named = [i for i in exact if fn.name and i.endswith(("#" + fn.name, "." + fn.name))]
            return (named or exact)[0]
        qualifier = self._nested_name(fn) or f"{site.rel}#<anonymous>@{site.line}:{site.col + 1}"
        node_id = self.ctx.node_id("symbol", qualifier)
        if self.ctx.find_node(node_id) is None:
            self.ctx.add_node("symbol", qualifier, fn.name or "<anonymous>", site.rel, site.line,
                              site.end_line, exported=False, symbol_kind="anonymous")  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", site.rel), node_id, "DEFINES", site.rel, site.line
            )
            symbols.setdefault((site.rel, site.line), []).append((site.end_line, node_id))
            self._symbol_sites[node_id] = site
        return node_id

    def _nested_name(self, fn: Func) -> str | None:
        """`<rel>#outer.<locals>.inner` for a named function inside another one."""
        a = self.ev.program.adapter(fn.site.rel)
        node = a.node_at(fn.site) if a is not None else None
        if a is None or node is None or not fn.name:
            return None
        names = [fn.name]
        outer = a.function_at(node)
        while outer is not None:
            name = a.function(outer).name
            if not name:
                return None
            names.insert(0, name + ".<locals>")
            outer = a.function_at(outer)
        return f"{fn.site.rel}#{'.'.join(names)}" if len(names) > 1 else None

    def handler_of(self, value: Value | None) -> Func | None:
        """The function a route runs: a wrapper's argument (`catchAsync(fn)`) unwrapped."""
        seen = 0
        while isinstance(value, Func) and value.act is not None and seen < 4:
            inner = next((v for _, v in value.act.values if isinstance(v, Func)), None)
            if inner is None:
                break
            value, seen = inner, seen + 1
        if isinstance(value, Choice):
            return next((v for v in value.options if isinstance(v, Func)), None)
        return value if isinstance(value, Func) else None

    def _built_handler(self, where: Site | None) -> str | None:
        """A handler a call builds: the function a package wrapper wraps
        (`asyncHandler(fn)`), else the expression itself (`swaggerUi.setup(spec)`)."""
        a = self.ev.program.adapter(where.rel) if where is not None else None
        node = a.node_at(where) if a is not None and where is not None else None
        view = a.call_view(node) if node is not None and a is not None else None
        if view is None or a is None or node is None:
            return None
        for arg in reversed(view.args):
            value = self.handler_of(self.ev.eval(where.rel, arg, None))
            if value is not None:
                return self.symbol_for(value)
        callee = self.ev.eval(where.rel, view.callee, None)
        package = (
            package_name(callee.package)
            if isinstance(callee, Ext) and not callee.package.startswith("<")
            else None
        )
        qualifier = f"{where.rel}#<handler>@{where.line}:{where.col + 1}"
        node_id = self.ctx.node_id("symbol", qualifier)
        if self.ctx.find_node(node_id) is None:
            attrs = {"package": package} if package else {}
            name = " ".join(a.text(view.callee).split())[:60]
            self.ctx.add_node("symbol", qualifier, name, where.rel, where.line, where.end_line,
                              exported=False, symbol_kind="expression", **attrs)  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", where.rel), node_id, "DEFINES", where.rel, where.line
            )
        return node_id

    def _symbol_at(self, file: str, line: int) -> str | None:
        found = self._symbol_index().get((file, line))
        return found[0][1] if found else None

    def _symbol_index(self) -> dict[tuple[str, int], list[tuple[int, str]]]:
        if self._symbols is None:
            index: dict[tuple[str, int], list[tuple[int, str]]] = {}
            for node in self.ctx.facts.nodes:
                if node.kind == "symbol" and node.file and node.line:
                    index.setdefault((node.file, node.line), []).append(
                        (node.end_line or node.line, node.id)
                    )
            self._symbols = index
        return self._symbols
