"""One tree-sitter query walk per JS-family file, shared by every JS-family extractor.

`file_index(ctx, sf)` runs one combined query per file (calls, declarators, functions,
`defaults.baseURL` assignments, ERROR nodes) and caches it in
`ctx.shared.js_index`; `call_names` and `local_value` add what several extractors would
otherwise each recompute per call site (callee names, declaration scopes).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.js.common import dotted_name
from extractors.js.model import FileIndex
from extractors.source import matches

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.source import SourceFile


_INDEX_QUERY = """
(call_expression) @call
(new_expression) @call
(variable_declarator name: (identifier) @n value: (_) @v)
[(arrow_function) (function_expression)] @fn
(assignment_expression left: (member_expression) @l right: (_) @r (#match? @l "defaults[.]baseURL$"))
(ERROR) @error
"""


def file_index(ctx: ComponentContext, sf: SourceFile) -> FileIndex:
    cache = ctx.shared.js_index
    index = cache.get(sf.rel)
    if index is not None:
        return index
    index = cache[sf.rel] = FileIndex()
    calls, functions, decls = index.calls, index.functions, index.decls
    add_call, add_function = calls.append, functions.append
    data = sf.data
    # dispatch on the pattern index: 0-1 call, 2 declarator, 3 function, 4 defaults.baseURL,
    # 5 ERROR
    for pattern, m in matches(sf.language, _INDEX_QUERY, sf.tree.root_node):
        if pattern <= 1:
            add_call(m["call"][0])
        elif pattern == 2:
            name = m["n"][0]
            key = data[name.start_byte : name.end_byte].decode("utf-8", "replace")
            found = decls.get(key)
            if found is None:
                decls[key] = [m["v"][0]]
            else:
                found.append(m["v"][0])
        elif pattern == 3:
            add_function(m["fn"][0])
        elif pattern == 4:
            index.defaults.append((m["l"][0], m["r"][0]))
        else:
            index.errors.append(m["error"][0])
    calls.sort(key=_start)
    functions.sort(key=_start)
    for values in decls.values():
        if len(values) > 1:
            values.sort(key=_start)
    return index


_start = attrgetter("start_byte")  # the sort key, called per node: a C getter


def call_names(
    ctx: ComponentContext, sf: SourceFile
) -> list[tuple[TsNode, TsNode | None, str | None]]:
    """(call, callee node, dotted callee name) for every call/new expression, computed once
    per file for every extractor that dispatches on the callee."""
    index = file_index(ctx, sf)
    if index.callees is None:
        out = []
        data = sf.data
        for call in index.calls:
            fn = call.child_by_field_name(
                "function" if call.type == "call_expression" else "constructor"
            )
            if fn is not None and fn.type == "identifier":  # dotted_name's common case, inline
                name = data[fn.start_byte : fn.end_byte].decode("utf-8", "replace")
            else:
                name = dotted_name(sf, fn)
            out.append((call, fn, name))
        index.callees = out
    return index.callees


_SCOPES = {
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
}


def local_value(ctx: ComponentContext, sf: SourceFile, at: TsNode, name: str) -> TsNode | None:
    """The nearest earlier `name = value` declared in a function scope around `at`."""
    index = file_index(ctx, sf)
    values = index.decls.get(name)
    if not values:
        return None
    spans = index.scopes.get(name)
    if spans is None:
        spans = index.scopes[name] = [None] * len(values)
    at_start = at.start_byte
    for i in range(len(values) - 1, -1, -1):
        value = values[i]
        if value.start_byte >= at_start:
            continue
        span = spans[i]
        if span is None:
            span = spans[i] = _scope_span(value)
        _, scope_start, scope_end = span
        if scope_start is None:
            return None  # module level: a const, resolved elsewhere
        if scope_start <= at_start < scope_end:
            return values[i]
    return None


def _scope_span(value: TsNode) -> tuple[int, int | None, int]:
    scope = value.parent
    while scope is not None and scope.type not in _SCOPES:
        scope = scope.parent
    if scope is None:
        return value.start_byte, None, 0
    return value.start_byte, scope.start_byte, scope.end_byte
