"""Where a frontend uses an operation of a generated client that is not committed: a call
of a function imported from the generator's output (`usersList()`, `UsersService.list()`),
and the operation handed over as a value for a library or a later call to run
(`useQuery({ queryFn: usersList })`, `useSWR('users', usersList)`, `const load = usersList`)
— each an http_call with `operation` at the line where it happens. Vue and Svelte
components are read through their `<script>` blocks (js/vue.py carves them)."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.infra.codegen_output import Generator, module_path
from extractors.js.common import owner_at
from extractors.lang.files import js_adapter_of
from extractors.source import matches

SCRIPT_LANGUAGES = ("javascript", "typescript", "tsx")
# where a reference hands the function over rather than calling it or naming it
_PASSED = {"arguments", "pair", "variable_declarator", "assignment_expression", "array",
           "jsx_expression", "return_statement", "arrow_function"}  # fmt: skip
_REFERENCES = "(identifier) @ref (member_expression) @ref"


def _from_output(spec: str, from_rel: str, output: str) -> bool:
    """Does the import specifier name the generator's output (or a module inside it)?
    Relative specifiers are joined to the importing file; an alias (`@/`, `~/`, `$lib/`,
    `#`) names a folder the path after it ends in."""
    if spec.startswith("."):
        path = module_path(spec, from_rel)
        return path == output or path.startswith(output + "/")
    head, _, rest = spec.partition("/")
    if not rest or not (head in ("@", "~") or head.startswith(("$", "#", "~"))):
        return False
    rest = module_path(rest, "")
    inner = output.split("/", 1)[1] if "/" in output else output  # `src/api` under `@/`
    return any(rest == o or rest.startswith(o + "/") for o in {output, inner}) or output.endswith(
        "/" + rest
    )


def generated_calls(ctx: ComponentContext, gens: list[Generator]) -> None:
    for rel, mod in sorted(ctx.shared.js.modules.items()):
        hits: dict[str, tuple[str, Generator]] = {}  # local name -> (imported, generator)
        for local, b in mod.imports.items():
            if b.target is not None or b.imported == "default":
                continue  # a committed module: the engine reads it as written
            gen = next((g for g in gens if _from_output(b.spec, rel, g.output)), None)
            if gen is not None:
                hits[local] = (b.imported, gen)
        if not hits or mod.sf.language not in SCRIPT_LANGUAGES:
            continue
        seen: set[str] = set()
        for call, _fn, name in js_adapter_of(ctx, mod.sf).call_names:
            if name and call.type == "call_expression":
                _use(ctx, rel, mod, hits, call, name, seen)
        for node in _passed(mod.sf, hits):
            _use(ctx, rel, mod, hits, node, mod.sf.data[node.start_byte : node.end_byte].decode(),
                 seen, passed=True)  # fmt: skip


def _passed(sf, hits: dict[str, tuple[str, Generator]]) -> list[TsNode]:
    """References to an imported operation that hand it over: an argument, an object's
    value, an initializer or assigned value, an array item, a JSX attribute, what an arrow
    returns — not a callee, not the object of a member read, not an import or a type."""
    out = []
    for _, m in matches(sf.language, _REFERENCES, sf.tree.root_node):
        node = m["ref"][0]
        text = sf.data[node.start_byte : node.end_byte].decode("utf-8", "replace")
        if text.split(".", 1)[0] not in hits or node.parent is None:
            continue
        parent = node.parent
        if parent.type not in _PASSED or parent.child_by_field_name("function") == node:
            continue
        if parent.type == "variable_declarator" and parent.child_by_field_name("value") != node:
            continue
        if parent.type == "assignment_expression" and parent.child_by_field_name("right") != node:
            continue
        if parent.type == "arrow_function" and parent.child_by_field_name("body") != node:
            continue
        if parent.type == "pair" and parent.child_by_field_name("value") != node:
            continue
        out.append(node)
    return out


def _use(ctx, rel, mod, hits, node: TsNode, name: str, seen: set[str], passed: bool = False):
    head, _, tail = name.partition(".")
    if head not in hits:
        return
    imported, gen = hits[head]
    op = tail.rsplit(".", 1)[-1] if tail else imported
    if not op or op == "*":
        return
    line = node.start_point[0] + 1
    qual = f"{op}()@{rel}:{line}:{node.start_point[1] + 1}"
    if qual in seen:
        return
    seen.add(qual)
    extra = {"passed": True} if passed else {}
    node_id = ctx.add_node(
        "http_call", qual, f"{op}()", rel, line, node.end_point[0] + 1,
        operation=op, generator=gen.tool, generator_config=gen.where,
        generated_from=gen.input, import_spec=mod.imports[head].spec, **extra,
    )  # fmt: skip
    ctx.add_edge(owner_at(ctx, rel, node), node_id, "CALLS_HTTP", rel, line)
