"""The one evaluator: an expression node of either language -> a `Value`.

Follows names through function scopes, closures, module constants, imports and re-exports;
members of object literals, modules, classes and instances (fields, `this.x = …` /
`self.x = …`), assignments made to an object elsewhere (`OpenAPI.BASE = …` wins over the
literal it started as); `||` / `??` / `or` (an env var's default), ternaries and
reassignment (`Choice`), string concatenation, templates and f-strings, calls of the
component's functions (their returns, with the arguments bound), and loop variables (the
items of a static list). What a library does — `express.Router()`, `axios.create()`,
`process.env.X`, `ConfigService.get` — is asked of the models (`Library`). What stays
unknown is a `Param` (a wrapper's input) or an `Unknown` with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from tree_sitter import Node as TsNode

from extractors.engine import builtins
from extractors.engine.config_sources import build_placeholder
from extractors.engine.dependencies import Injector
from extractors.engine.program import Program
from extractors.engine.values import (
    STRINGISH,
    Activation,
    ArrLit,
    Choice,
    Env,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Module,
    Obj,
    ObjLit,
    Param,
    Scope,
    Site,
    Typed,
    Unknown,
    Value,
    choice,
    concat,
)
from extractors.lang.base import Binding, FileAdapter
from extractors.lang.expr import (
    EArray,
    EBinary,
    ECall,
    EClass,
    ECond,
    EConst,
    EFunc,
    EIndex,
    ELogical,
    EMember,
    EName,
    EObject,
    EStr,
    ETemplate,
    EThis,
)

MAX_DEPTH = 32  # nested evaluations (names followed, members, calls): a generated client's
# base read through a config object is ~28 deep
MAX_STEPS = 20_000  # evaluations one outermost read may take (library code: a name set in
# many places, each read through calls of functions that read it again, multiplies)
MAX_CALL_DEPTH = 6  # component functions entered to read their returns
MAX_ITEMS = 64  # array items kept
SPREADS = ("spread_element", "list_splat")  # `...xs` (JS), `*xs` (Python) in a call


class Library(Protocol):
    """What the models add to the language: library objects, their members and calls."""

    def member(self, ev: Evaluator, target: Value, name: str, rel: str = "") -> Value | None: ...

    def call(self, ev: Evaluator, call: Call) -> Value | None: ...

    def typed(self, ev: Evaluator, type_value: Value) -> Value | None: ...

    def subclass(self, ev: Evaluator, klass: Klass) -> Value | None: ...


@dataclass
class Call:
    """A call being evaluated: its callee value, receiver, and arguments evaluated on demand."""

    ev: Evaluator
    rel: str
    node: TsNode
    view: ECall
    act: Activation | None
    callee: Value
    receiver: Value | None = None
    depth: int = 0
    _args: dict = field(default_factory=dict)

    @property
    def site(self) -> Site:
        return self.ev.program.adapter(self.rel).site(self.node)  # type: ignore[union-attr]

    @property
    def name(self) -> str:
        return self.callee.name if isinstance(self.callee, Method) else ""

    def arg(self, i: int) -> Value | None:
        if self.view.spread and any(n.type in SPREADS for n in self.view.args[: i + 1]):
            spread = self._spread()
            return spread[i] if i < len(spread) else None
        if i >= len(self.view.args):
            return None
        if i not in self._args:
            self._args[i] = self.ev.eval(self.rel, self.view.args[i], self.act, self.depth + 1)
        return self._args[i]

    def _spread(self) -> list[Value]:
        """The arguments with `...xs` expanded where `xs` is a known list (`fetch(...args)`
        forwarding a rest parameter); positions after an unknown spread are not known."""
        if "spread" not in self._args:
            out: list[Value] = []
            for node in self.view.args:
                if node.type not in SPREADS:
                    out.append(self.ev.eval(self.rel, node, self.act, self.depth + 1))
                    continue
                inner = self.ev.eval(self.rel, node.named_children[0], self.act, self.depth + 1) \
                    if node.named_children else None  # fmt: skip
                if isinstance(inner, Param):  # a rest parameter not bound yet: its items
                    out += [Param(f"{inner.name}.{k}", inner.scope) for k in range(4)]
                if not isinstance(inner, ArrLit):
                    break
                out += list(inner.items)
            self._args["spread"] = out
        return self._args["spread"]

    def kwarg(self, name: str) -> Value | None:
        node = self.view.kwargs.get(name)
        if node is None:
            return self._kwspread(name) if self.view.kwspread else None
        key = "kw:" + name
        if key not in self._args:
            self._args[key] = self.ev.eval(self.rel, node, self.act, self.depth + 1)
        return self._args[key]

    def _kwspread(self, name: str) -> Value | None:
        """A keyword read from `**kw` where `kw` is a known dict (the last one that has it)."""
        for node in reversed(self.view.kwspread):
            found = self.ev.eval(self.rel, node, self.act, self.depth + 1)
            if isinstance(found, ObjLit):
                value = self.ev.object_member(found, name, self.depth + 1)
                if not isinstance(value, (Method, Unknown)) and value != Lit(None):
                    return value
        return None

    def args(self) -> list[Value]:
        if self.view.spread and any(n.type in SPREADS for n in self.view.args):
            return list(self._spread())
        return [self.arg(i) for i in range(len(self.view.args))]  # type: ignore[misc]


class Evaluator:
    def __init__(self, program: Program, library: Library):
        self.program = program
        self.library = library
        self._cache: dict[tuple[str, int, int], Value] = {}
        self._open = 0  # evaluations in progress (0: the next one is an outermost read)
        self._steps = MAX_STEPS  # what the outermost read in progress may still take
        self._assigned: dict[tuple[Value, str], list[tuple[str, TsNode]]] | None = None
        self._building = False
        self._entered: set[Scope] = set()
        self.injector = Injector(self)  # what dependency injection provides for a token
        self.defines: dict[str, Value] = {}  # names a bundler replaces (engine/defines.py)
        if hasattr(library, "attach"):
            library.attach(self)

    # --- entry --------------------------------------------------------------------
    def eval(self, rel: str, node: TsNode | None, act: Activation | None, depth: int = 0) -> Value:
        if node is None:
            return Unknown("", "nothing to evaluate")
        adapter = self.program.adapter(rel)
        if adapter is None:
            return Unknown("", f"{rel} is not code")
        if depth > MAX_DEPTH:
            return Unknown(adapter.text(node)[:80], "evaluation too deep")
        node = adapter.unwrap(node)  # one identity for `(x)`, `await x`, `x as T` and `x`
        key = (rel, node.start_byte, node.end_byte)
        if act is None and key in self._cache:
            return self._cache[key]
        if self._open == 0:
            self._steps = MAX_STEPS
        elif self._steps <= 0:
            return Unknown(adapter.text(node)[:80], "too costly to evaluate")
        self._steps -= 1
        self._open += 1
        try:
            value = self._eval(rel, adapter, node, act, depth)
        finally:
            self._open -= 1
        if act is None:
            self._cache[key] = value
        return value

    def _eval(self, rel: str, a: FileAdapter, node: TsNode, act, depth: int) -> Value:
        view = a.view(node)
        d = depth + 1
        if isinstance(view, EStr):
            return Lit(view.value)
        if isinstance(view, EConst):
            return Lit(view.value)
        if isinstance(view, ETemplate):
            return concat(*(Lit(p) if isinstance(p, str) else self._stringy(self.eval(rel, p, act, d), a, p)
                            for p in view.parts))  # fmt: skip
        if isinstance(view, EName):
            return self.name(rel, a, node, view.name, act, d)
        if isinstance(view, EThis):
            return self.this(rel, a, node, act)
        if isinstance(view, EMember):
            target = self.eval(rel, view.obj, act, d)
            return self.member(target, view.name, rel, node, d)
        if isinstance(view, EIndex):
            target = self.eval(rel, view.obj, act, d)
            index = self.eval(rel, view.index, act, d)
            if isinstance(index, Lit) and isinstance(index.value, (str, int)):
                return self.member(target, str(index.value), rel, node, d)
            if isinstance(index, Choice) and all(isinstance(o, Lit) for o in index.options):
                return choice(
                    [self.member(target, str(o.value), rel, node, d) for o in index.options],
                    index.condition,
                )  # `axios[cond ? 'delete' : 'post']`
            if isinstance(target, ObjLit):  # `urls[kind]`: one of the object's values
                return self.any_member(target, a.text(view.index), d)
            return Unknown(a.text(node)[:80], "computed member")
        if isinstance(view, ECall):
            return self.call(rel, a, node, view, act, d)
        if isinstance(view, EBinary):
            left, right = self.eval(rel, view.left, act, d), self.eval(rel, view.right, act, d)
            if view.op == "+" and (builtins.texty(left) or builtins.texty(right)):
                # text + anything is text: what is not a string reads as a named hole
                left, right = self._stringy(left, a, view.left), self._stringy(right, a, view.right)
            return builtins.binary(view.op, left, right, a.text(node))
        if isinstance(view, ELogical):
            left, right = self.eval(rel, view.left, act, d), self.eval(rel, view.right, act, d)
            return builtins.logical(view.op, left, right)
        if isinstance(view, ECond):
            decided = self._decided(rel, a, view.test, act, d)
            if decided is not None:  # `cfg.basePath != null ? cfg.basePath : BASE_PATH`
                return self.eval(rel, view.then if decided else view.other, act, d)
            then, other = self.eval(rel, view.then, act, d), self.eval(rel, view.other, act, d)
            return choice([then, other], " ".join(a.text(view.test).split())[:120])
        if isinstance(view, EObject):
            return ObjLit(a.site(node), act)
        if isinstance(view, EArray):
            items = [self.eval(rel, item, act, d) for item in view.items[:MAX_ITEMS]]
            for spread in view.spreads:
                inner = self.eval(rel, spread, act, d)
                if isinstance(inner, ArrLit):
                    items += list(inner.items)
            return ArrLit(tuple(items[:MAX_ITEMS]), a.site(node))
        if isinstance(view, EFunc):
            return Func(a.site(node), act, None, a.function(node).name)
        if isinstance(view, EClass):
            info = a.klass(node)
            return Klass(a.site(node), info.name if info else "")
        return Unknown(" ".join(a.text(node).split())[:120], view.why)  # type: ignore[attr-defined]

    def _decided(self, rel: str, a: FileAdapter, test: TsNode, act, depth: int) -> bool | None:
        """A condition known statically: a comparison with null / undefined of a value that
        is certainly set (a literal, an env var, text with a literal part), else None."""
        view = a.view(test)
        if not (isinstance(view, EBinary) and view.op in ("!=", "!==", "==", "===")):
            return None
        right = a.view(view.right)
        if not (isinstance(right, EConst) and right.value is None):
            return None
        left = self.eval(rel, view.left, act, depth)
        present = left != Lit(None) and (
            isinstance(left, (Lit, Env, ObjLit, ArrLit, Func)) or builtins.truthy(left) is True
        )
        if left == Lit(None):
            return view.op in ("==", "===")
        return (view.op in ("!=", "!==")) if present else None

    def _stringy(self, value: Value, a: FileAdapter, node: TsNode) -> Value:
        """A value interpolated into text: itself when it is text, each alternative of a
        choice likewise, anything else an unknown named by the expression."""
        if isinstance(value, Choice):
            return choice([self._stringy(o, a, node) for o in value.options], value.condition)
        if isinstance(value, STRINGISH):
            return value
        return Unknown(" ".join(a.text(node).split())[:80], "not a string")

    # --- names ----------------------------------------------------------------------
    def name(self, rel: str, a: FileAdapter, at: TsNode, name: str, act, depth: int) -> Value:
        binding = a.resolve(name, at)
        if binding is None or binding.kind == "import":
            found = self.program.imported(self, rel, name)
            if found is not None:
                return found
            if binding is not None and binding.path and not binding.path[0].startswith("."):
                module, imported = binding.path  # a package import the module tables skip
                return Ext(module, (imported,)) if imported else Ext(module)
            if binding is None and rel in self.program.js:
                const = self.program.js[rel].consts.get(name)
                if const is not None:
                    return self.eval(rel, const, None, depth)
                if name in ("__dirname", "__filename"):  # CommonJS: where this file is
                    return Lit(
                        rel.rsplit("/", 1)[0]
                        if name == "__dirname" and "/" in rel
                        else ""
                        if name == "__dirname"
                        else rel
                    )
            if binding is None and name == "__file__" and a.family == "py":
                return Lit(rel)
            if name in self.defines:  # a name the bundler replaces (`__API_URL__`)
                return self.defines[name]
            return Ext("<global>", (name,))
        return self.binding_value(rel, a, binding, act, at, depth)

    def binding_value(self, rel: str, a: FileAdapter, b: Binding, act, at, depth: int) -> Value:
        kind = b.kind
        if kind == "function":
            return Func(a.site(b.node), self._closure(a, b.scope, act), None, b.name)
        if kind == "class":
            return Klass(a.site(b.node), b.name)
        if kind == "param":
            return self._param(rel, a, b, act, depth)
        if kind == "loop":
            bound = act.find(a.scope_of(b.node)) if act is not None else None
            if bound is not None and bound.get(b.name) is not None:
                return bound.get(b.name)  # type: ignore[return-value]
            items = self.eval(rel, b.value, act, depth)
            if isinstance(items, ArrLit) and items.items:
                return choice([self.path_of(i, b.path, rel, at, depth) for i in items.items])
            return Unknown(b.name, "loop variable over a list not known statically")
        if kind == "catch":
            return Unknown(b.name, "caught error")
        values = []
        outer = self._closure(a, b.scope, act)
        for decl in a.bindings(b):  # type: ignore[attr-defined]
            if decl.value is None:
                continue
            value = self.eval(rel, decl.value, outer, depth)
            values.append(self.path_of(value, decl.path, rel, at, depth))
        if not values:
            return Unknown(b.name, "declared without a value")
        return choice(values)

    def _closure(self, a: FileAdapter, scope: TsNode, act: Activation | None) -> Activation | None:
        """The activation a scope's names are evaluated in: the bound one when the
        evaluation is inside it, else none (symbolic)."""
        if act is None or scope.type in {"program", "module"}:
            return None
        found = act.find(a.scope_of(scope))
        return found if found is not None else None

    def _param(self, rel: str, a: FileAdapter, b: Binding, act, depth: int) -> Value:
        scope = a.scope_of(b.scope)
        bound = act.find(scope) if act is not None else None
        if bound is not None:
            value = bound.get(f"#{b.index}")
            if value is not None:
                return self.path_of(value, b.path, rel, b.node, depth)
            if b.default is not None:
                return self.eval(rel, b.default, bound, depth)
            if b.index == 0 and a.family == "py" and bound.this is not None:
                return bound.this
        if b.index == 0 and a.family == "py" and b.name in ("self", "cls"):
            owner = a.class_of_method(b.scope)
            if owner is not None:
                klass = Klass(a.site(owner), a.klass(owner).name)  # type: ignore[union-attr]
                return Instance(klass) if b.name == "self" else klass
        if b.path and isinstance(b.path[0], str):  # `({ $axios }) => …`: a member a model names
            held = self.library.member(
                self, Unknown(b.name, "destructured parameter"), b.path[0], rel
            )
            if isinstance(held, Obj):
                return self.path_of(held, b.path[1:], rel, b.node, depth)
        if b.index == 0 and (settled := a.settled_by(b.scope)) is not None:
            return self.path_of(self.eval(rel, settled, act, depth), b.path, rel, b.node, depth)
        injected = self.injected(rel, a, b.node, depth)  # `@Inject(API_URL) url: string`
        if injected is not None:
            return injected
        if b.type is not None:  # a parameter a model knows by its type (`http: HttpClient`)
            typed = self._typed(rel, a, b.type, depth)
            if isinstance(typed, (Obj, Instance)):
                return typed
        return Param(b.name, scope)

    def _typed(self, rel: str, a: FileAdapter, annotation: TsNode, depth: int) -> Value | None:
        """A parameter known by its declared type: what the models make of that type."""
        node = annotation
        while node.named_children and node.type in {"type_annotation", "type", "generic_type"}:
            node = node.named_children[0]
        if node.type not in {
            "type_identifier",
            "identifier",
            "nested_type_identifier",
            "attribute",
        }:
            return None
        name = a.text(node)
        head = name.split(".")[0]
        binding = a.resolve(head, annotation)
        value = (self.binding_value(rel, a, binding, None, annotation, depth)
                 if binding is not None and binding.kind != "import"
                 else self.program.imported(self, rel, head))  # fmt: skip
        if value is None:
            return None
        for part in name.split(".")[1:]:
            value = self.member(value, part, rel, annotation, depth)
        if isinstance(value, Klass):  # a class of the component: an instance of it
            return self.library.subclass(self, value) or Instance(value)
        return self.library.typed(self, value) or Typed(value, name)

    def injected(self, rel: str, a: FileAdapter, param: TsNode, depth: int) -> Value | None:
        """What a decorator on a parameter injects (`@Inject(TOKEN)`: a model operation's
        `dependency`), else None."""
        for decorator in a.param_decorators(param):
            value = self.eval(rel, decorator, None, depth + 1)
            if not isinstance(value, (Unknown, Method, Param)):
                return value
        return None

    def apply(self, fn: Func, args: list[Value]) -> tuple[list[Value], Activation | None]:
        """What a component function returns when called with these arguments (a library
        calling it: an interceptor, a provider factory), and the activation it ran in."""
        a = self.program.adapter(fn.site.rel)
        node = a.node_at(fn.site) if a is not None else None
        if a is None or node is None or not a.is_function(node):
            return [], None
        info = a.function(node)
        method = a.family == "py" and info.is_method and fn.this is not None
        act = Activation(a.scope_of(node), self._bind(info, args, {}, method), fn.this, fn.act, 1)
        scope = a.scope_of(node)
        if scope in self._entered:
            return [], act
        self._entered.add(scope)
        try:
            return [self.eval(fn.site.rel, r, act, 1) for r in a.returns(info)], act
        finally:
            self._entered.discard(scope)

    def path_of(self, value: Value, path: tuple, rel: str, at, depth: int) -> Value:
        """A destructured part of a value (`const { a: [b] } = v`)."""
        for step in path:
            if step == "...":
                return value
            if isinstance(step, int):
                if isinstance(value, ArrLit):
                    value = value.items[step] if step < len(value.items) else Unknown("", "no item")
                else:
                    value = self.member(value, str(step), rel, at, depth)
            else:
                value = self.member(value, step, rel, at, depth)
        return value

    def this(self, rel: str, a: FileAdapter, at: TsNode, act) -> Value:
        if act is not None and act.this_value() is not None:
            return act.this_value()  # type: ignore[return-value]
        fn = a.function_at(at)
        while fn is not None and fn.type == "arrow_function":
            fn = a.function_at(fn)
        if fn is None:
            owner = a.class_of_field(at)  # `users = { login: () => this.request(…) }`
            if owner is not None:
                info = a.klass(owner)
                return Instance(Klass(a.site(owner), info.name if info else ""))
            return Unknown("this", "module-level this")
        owner = a.class_of_method(fn)
        if owner is not None:
            info = a.klass(owner)
            return Instance(Klass(a.site(owner), info.name if info else ""))
        parent = fn.parent  # a method or function of an object literal: that object
        while parent is not None and parent.type in {"pair", "parenthesized_expression"}:
            parent = parent.parent
        if parent is not None and a.view(parent).__class__ is EObject:
            return ObjLit(a.site(parent), None)
        return Unknown("this", "this of a free function")

    # --- members --------------------------------------------------------------------
    def member(self, target: Value, name: str, rel: str, at, depth: int) -> Value:
        if depth > MAX_DEPTH:
            return Unknown(name, "evaluation too deep")
        assigned = self.assigned(target, name, depth)
        if assigned is not None:
            return assigned
        found = self.library.member(self, target, name, rel)
        if found is not None:
            return found
        if isinstance(target, Choice):
            return choice([self.member(o, name, rel, at, depth + 1) for o in target.options])
        if isinstance(target, Param):  # still a wrapper's input: `options.url`
            return Param(f"{target.name}.{name}", target.scope)
        if isinstance(target, ObjLit):
            return self.object_member(target, name, depth)
        if isinstance(target, ArrLit):
            if name.isdigit() and int(name) < len(target.items):
                return target.items[int(name)]
            return Method(target, name)
        if isinstance(target, Module):
            return self.program.exported(self, target.rel, name)
        if isinstance(target, Instance):
            return self.instance_member(target, name, depth)
        if isinstance(target, Klass):
            return self.class_member(target, name, depth, static=True)
        if isinstance(target, Ext):
            return Ext(target.package, (*target.path, name))
        if isinstance(target, Func) and name in ("bind", "call", "apply"):
            return Method(target, name)
        return Method(target, name)

    def object_member(self, obj: ObjLit, name: str, depth: int) -> Value:
        for key, value in obj.extra:
            if key == name:
                return value
        a = self.program.adapter(obj.site.rel)
        node = a.node_at(obj.site) if a is not None else None
        view = a.view(node) if node is not None else None
        if not isinstance(view, EObject):
            return Unknown(name, "object literal not found")
        for entry in reversed(view.entries):
            if entry.key == name:
                if entry.kind == "method":
                    return Func(a.site(entry.value), obj.act, obj, name)
                value = self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                if isinstance(value, Func):  # an arrow function keeps the `this` it closes over
                    arrow = a.node_at(value.site) if value.site.rel == obj.site.rel else None
                    this = None if arrow is not None and arrow.type == "arrow_function" else obj
                    return Func(value.site, value.act, this, name)
                return build_placeholder(name, value, a.site(entry.value))
        known = True  # every key is known: a missing member is `undefined`
        for entry in reversed(view.entries):  # a computed key that evaluates to the name
            if entry.key is None and entry.key_node is not None:
                key = self.eval(obj.site.rel, entry.key_node, obj.act, depth + 1)
                if isinstance(key, Lit) and str(key.value) == name:
                    return self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                known = known and isinstance(key, Lit)
        for entry in reversed(view.entries):  # the last spread that has it wins
            if entry.kind == "spread":
                inner = self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                if isinstance(inner, Param):
                    known = False
                    continue  # `{ url, ...options }`: overrides a caller may pass, not known here
                found = _present(self.member(inner, name, obj.site.rel, entry.value, depth + 1))
                if found is not None and not isinstance(found, Param):
                    return found
                known = known and isinstance(inner, ObjLit)
        return Lit(None) if known and a.family == "js" else Method(obj, name)

    def any_member(self, obj: ObjLit, key_text: str, depth: int) -> Value:
        """A member of an object literal read with a key not known statically: each of its
        values, the condition saying which key."""
        a = self.program.adapter(obj.site.rel)
        node = a.node_at(obj.site) if a is not None else None
        view = a.view(node) if node is not None else None
        if not isinstance(view, EObject):
            return Unknown(key_text, "computed member")
        entries = [e for e in view.entries if e.kind == "prop"][:16]
        values = [self.eval(obj.site.rel, e.value, obj.act, depth + 1) for e in entries]
        if not values:
            return Unknown(key_text, "computed member of an empty object")
        keys = [e.key or a.text(e.key_node) for e in entries]
        return choice(values, f"{key_text} in {{{', '.join(keys)}}}")

    def instance_member(self, inst: Instance, name: str, depth: int) -> Value:
        found = self.class_member(inst.klass, name, depth, instance=inst)
        return found

    def class_member(self, klass: Klass, name: str, depth: int, static: bool = False,
                     instance: Instance | None = None) -> Value:  # fmt: skip
        a = self.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        if a is None or info is None:
            return Unknown(name, "class not found")
        rel = klass.site.rel
        this = instance if instance is not None else klass
        if name in info.methods:
            method = info.methods[name]
            if a.family == "js" and any(c.type == "get" for c in method.children):  # a getter
                outs, _ = self.apply(Func(a.site(method), None, this, name), [])
                return choice(outs) if outs else Unknown(name, "getter returns nothing known")
            return Func(a.site(method), None, this, name)
        ctor_act = self._ctor_activation(a, info, instance)
        if ctor_act is not None:  # `Object.assign(this, config)` in the constructor
            merged = self._assigned_into_this(a, info, ctor_act, name, depth)
            if merged is not None:
                return merged
        if name in info.fields:
            passed = (
                self._field_passed(a, info, name, instance, depth) if a.family == "py" else None
            )
            if passed is not None:  # a dataclass / attrs field the constructor call gave
                return passed
            value = self.eval(rel, info.fields[name], ctor_act, depth + 1)
            if isinstance(value, Unknown) or value == Lit(None):  # `_c = field(default=None)`
                later = self._self_assignments(a, info, name)  # then `self._c = Client(…)`
                if later:
                    return choice([self.eval(rel, v, self._method_act(a, v, instance, ctor_act),
                                             depth + 1) for v in later])  # fmt: skip
            return self.library.field(self, klass, name, value, a.site(info.fields[name])) or value
        assigned = self._self_assignments(a, info, name)
        if assigned:
            values = [self.eval(rel, v, ctor_act, depth + 1) for v in assigned]
            return choice(values)
        if name in info.field_params:  # `constructor(@Inject(API_URL) private url: string)`
            injected = self.injected(rel, a, info.field_params[name], depth + 1)
            if injected is not None:
                return injected
            passed = self._parameter_property(a, info, name, ctor_act, depth)
            if passed is not None:  # `constructor(private config = new Configuration())`
                return passed
        if name in info.field_types and a.family == "py":  # `secret: str` of a settings class
            read = self.library.field(self, klass, name, None, a.site(info.field_types[name]))
            if read is not None:
                return read
        if name in info.field_types:  # `constructor(private http: HttpClient)`
            typed = self._typed(rel, a, info.field_types[name], depth + 1)
            if typed is not None:
                return typed
        for base in info.bases:
            parent = self.eval(rel, base, None, depth + 1)
            if isinstance(parent, Klass):
                inherited = self.class_member(parent, name, depth + 1, static, instance)
                if isinstance(inherited, Method) and isinstance(inherited.target, Obj):
                    # a library class's operation reached through a base of the component
                    # (`View.as_view` on a subclass of a subclass): this class is the object
                    made = Obj(inherited.target.model, inherited.target.role, klass.site,
                               inherited.target.props, klass.name)  # fmt: skip
                    return Method(made, name)
                if not isinstance(inherited, (Unknown, Method)):
                    return inherited
            elif isinstance(parent, Ext):  # a library base class: what the library gives
                made = self.library.subclass(self, klass)
                if made is not None:
                    return self.library.member(self, made, name) or Method(made, name)
                return self.library.member(self, Instance(klass), name) or Method(this, name)
        return Method(this, name)

    def _ctor_activation(
        self, a: FileAdapter, info, instance: Instance | None
    ) -> Activation | None:
        ctor = info.methods.get("constructor") or info.methods.get("__init__")
        if instance is None or not (instance.args or instance.kwargs):
            return None
        if ctor is None:  # field initializers still see `this` as the instance made
            return Activation(a.scope_of(info.node), (), instance) if a.family == "js" else None
        fn = a.function(ctor)
        values = self._bind(fn, list(instance.args), dict(instance.kwargs), a.family == "py")
        return Activation(a.scope_of(ctor), values, instance)

    def _method_act(self, a: FileAdapter, node: TsNode, instance: Instance | None,
                    default: Activation | None) -> Activation | None:  # fmt: skip
        """The activation of the Python method around `node` with `self` the instance."""
        fn = a.function_at(node) if instance is not None and a.family == "py" else None
        if fn is None:
            return default
        return Activation(a.scope_of(fn), self._bind(a.function(fn), [], {}, True), instance)

    def _field_passed(self, a: FileAdapter, info, name: str, instance: Instance | None,
                      depth: int) -> Value | None:  # fmt: skip
        """A field of a class with no `__init__` of its own (a dataclass, an attrs or pydantic
        model): the keyword the constructor call passed for it — its name, its name without a
        leading underscore (attrs), or the `alias=` its `field(...)` names."""
        if instance is None or not instance.kwargs or "__init__" in info.methods:
            return None
        names = [name, name.lstrip("_")]
        view = a.call_view(info.fields[name])
        if view is not None and "alias" in view.kwargs:
            alias = self.eval(a.sf.rel, view.kwargs["alias"], None, depth + 1)
            if isinstance(alias, Lit) and isinstance(alias.value, str):
                names.insert(0, alias.value)
        kwargs = dict(instance.kwargs)
        return next((kwargs[n] for n in names if n in kwargs), None)

    def _parameter_property(self, a: FileAdapter, info, name: str, act: Activation | None,
                            depth: int) -> Value | None:  # fmt: skip
        """A TS parameter property's value: what the constructor was passed, else its default
        (None when neither is known: its declared type may still say)."""
        ctor = info.methods.get("constructor")
        node = info.field_params[name]
        param = next((p for p in a.function(ctor).params if p.node == node), None) if ctor else None
        if param is None:
            return None
        bound = act.get(f"#{param.index}") if act is not None else None
        if bound is not None:
            return bound
        return (
            self.eval(a.sf.rel, param.default, act, depth + 1)
            if param.default is not None
            else None
        )

    def _assigned_into_this(self, a: FileAdapter, info, act: Activation, name: str,
                            depth: int) -> Value | None:  # fmt: skip
        """A member an `Object.assign(this, source)` in the constructor copies in."""
        ctor = info.methods.get("constructor")
        if ctor is None or b"Object.assign" not in a.sf.data:
            return None
        rel = a.sf.rel
        for node in a.calls():
            if not (ctor.start_byte <= node.start_byte < ctor.end_byte):
                continue
            view = a.call_view(node)
            if view is None or len(view.args) < 2 or a.text(view.callee) != "Object.assign":
                continue
            if not isinstance(a.view(view.args[0]), EThis):
                continue
            for source in reversed(view.args[1:]):
                value = self.member(
                    self.eval(rel, source, act, depth + 1), name, rel, source, depth + 1
                )
                if not isinstance(value, (Unknown, Method)) and value != Lit(None):
                    return value
        return None

    def _self_assignments(self, a: FileAdapter, info, name: str) -> list[TsNode]:
        out = []
        start, end = info.node.start_byte, info.node.end_byte
        for target, value in a.member_assignments():
            if not (start <= target.start_byte < end):
                continue
            view = a.view(target)
            if isinstance(view, EMember) and view.name == name:
                obj = a.view(view.obj)
                if isinstance(obj, EThis) or (isinstance(obj, EName) and obj.name == "self"):
                    out.append(value)
        return out

    # --- assignments made elsewhere ------------------------------------------------
    def assigned(self, target: Value, name: str, depth: int) -> Value | None:
        """`target.name = value` written anywhere in the component wins over the literal."""
        if self._building or not isinstance(target, (ObjLit, Ext, Obj, Module, Klass, Func)):
            return None
        if self._assigned is None:
            self._build_assigned()
        found = self._assigned.get((_owner_key(target), name))  # type: ignore[union-attr]
        if not found:
            return None
        return choice([self.eval(rel, node, None, depth + 1) for rel, node in found])

    def _build_assigned(self) -> None:
        self._building = True
        table: dict[tuple[Value, str], list[tuple[str, TsNode]]] = {}
        try:
            for rel in self.program.rels():
                a = self.program.adapter(rel)
                if a is None:
                    continue
                for target, value in a.member_assignments():
                    view = a.view(target)
                    name = view.name if isinstance(view, EMember) else None
                    if isinstance(view, EIndex):  # `app.config["PREFIX"] = "/x"`
                        key = a.view(view.index)
                        name = key.value if isinstance(key, EStr) else None
                    if name is None:
                        continue
                    obj = a.view(view.obj)
                    if isinstance(obj, EThis) or (
                        isinstance(obj, EName) and obj.name in ("self", "exports", "module")
                    ):
                        continue
                    owner = self.eval(rel, view.obj, None)
                    if isinstance(owner, (ObjLit, Ext, Obj, Module, Klass, Func)):
                        table.setdefault((_owner_key(owner), name), []).append((rel, value))
        finally:
            self._building = False
        self._assigned = table
        self._cache.clear()  # values read while building did not see the assignments

    # --- calls ----------------------------------------------------------------------
    def call(self, rel: str, a: FileAdapter, node: TsNode, view: ECall, act, depth: int) -> Value:
        callee = self.eval(rel, view.callee, act, depth)
        receiver = callee.target if isinstance(callee, Method) else None
        if isinstance(callee, Func) and callee.this is not None:
            receiver = callee.this
        call = Call(self, rel, node, view, act, callee, receiver, depth)
        found = self.library.call(self, call)
        if found is not None:
            return found
        found = builtins.call(self, call)
        if found is not None:
            return found
        if isinstance(callee, Func):
            return self.returns(callee, call)
        if isinstance(callee, Param):  # a parameter called: still the caller's to know
            return Param(f"{callee.name}()", callee.scope)
        if isinstance(callee, Klass):
            kwargs = tuple((k, call.kwarg(k)) for k in view.kwargs)
            return Instance(callee, tuple(call.args()), kwargs)  # type: ignore[arg-type]
        if isinstance(callee, Choice):
            return choice([self._call_option(o, call) for o in callee.options])
        if isinstance(callee, Method) and callee.name == "bind" and isinstance(callee.target, Func):
            return callee.target
        return Unknown(" ".join(a.text(node).split())[:120], "result of a call not modelled")

    def _call_option(self, callee: Value, call: Call) -> Value:
        """One alternative of a callee chosen at run time (`classes[env]()`)."""
        if isinstance(callee, Func):
            return self.returns(callee, call)
        if isinstance(callee, Klass):
            kwargs = tuple((k, call.kwarg(k)) for k in call.view.kwargs)
            return Instance(callee, tuple(call.args()), kwargs)  # type: ignore[arg-type]
        one = Call(
            self,
            call.rel,
            call.node,
            call.view,
            call.act,
            callee,
            call.receiver,
            call.depth,
            call._args,
        )
        return self.library.call(self, one) or Unknown("", "call of a choice")

    def bind_call(self, fn_value: Func, call: Call) -> Activation | None:
        """The activation a call makes for a component function: its parameters bound to the
        call's arguments (each evaluated where the call is)."""
        a = self.program.adapter(fn_value.site.rel)
        node = a.node_at(fn_value.site) if a is not None else None
        if a is None or node is None:
            return None
        info = a.function(node)
        args = call.args()
        kwargs = {k: call.kwarg(k) for k in call.view.kwargs}
        method = a.family == "py" and info.is_method and fn_value.this is not None
        values = self._bind(info, args, kwargs, method)  # type: ignore[arg-type]
        depth = (call.act.depth + 1) if call.act is not None else 1
        return Activation(a.scope_of(node), values, fn_value.this, fn_value.act, depth)

    def _bind(self, info, args: list[Value], kwargs: dict[str, Value], skip_self: bool):
        values: list[tuple[str, Value]] = []
        offset = 1 if skip_self else 0
        for param in info.params:
            if param.path:
                continue
            position = param.index - offset
            if 0 <= position < len(args) and args[position] is not None:
                values.append((f"#{param.index}", args[position]))
            elif param.name in kwargs and kwargs[param.name] is not None:
                values.append((f"#{param.index}", kwargs[param.name]))
        for param in info.params:  # destructured parameters read the whole argument
            position = param.index - offset
            if _rest(param) and 0 <= position <= len(args):  # `...args`: the rest, a list
                values.append(
                    (f"#{param.index}", ArrLit(tuple(a for a in args[position:] if a is not None)))
                )
            elif param.path and 0 <= position < len(args) and f"#{param.index}" not in dict(values):
                values.append((f"#{param.index}", args[position]))
        return tuple(values)

    def returns(self, fn_value: Func, call: Call) -> Value:
        a = self.program.adapter(fn_value.site.rel)
        node = a.node_at(fn_value.site) if a is not None else None
        if a is None or node is None:
            return Unknown("", "function not found")
        scope = a.scope_of(node)
        depth = call.act.depth if call.act is not None else 0
        if scope in self._entered or depth >= MAX_CALL_DEPTH:
            return Unknown(fn_value.name, "recursive or deep call")
        act = self.bind_call(fn_value, call)
        info = a.function(node)
        self._entered.add(scope)
        try:
            outs = [self.eval(fn_value.site.rel, r, act, call.depth + 1) for r in a.returns(info)]
        finally:
            self._entered.discard(scope)
        if not outs:
            return Unknown(fn_value.name, "returns nothing known")
        return choice(outs)


def _present(value: Value) -> Value | None:
    """A member's value where it may be there: the options of a choice that are (`...(a ||
    {})` has `a`'s member or none), None when it is certainly absent."""
    if isinstance(value, Choice):
        kept = [o for o in value.options if _present(o) is not None]
        return choice(kept, value.condition) if kept else None
    return None if isinstance(value, (Unknown, Method)) or value == Lit(None) else value


def _rest(param: Binding) -> bool:
    """A rest parameter (`...args`, `...args: T[]`), not an object pattern's rest."""
    node = param.node
    pattern = node.child_by_field_name("pattern") if node.type != "rest_pattern" else node
    return param.path == ("...",) and pattern is not None and pattern.type == "rest_pattern"


def lit_text(value: Value | None) -> str | None:
    if isinstance(value, Lit) and isinstance(value.value, str):
        return value.value
    return None


__all__ = ["Call", "Evaluator", "Library", "lit_text", "Env", "Param"]


def _owner_key(owner: Value) -> object:
    """A function is one object wherever it is read (`useCourse.loader = …` assigned to the
    function, read through `loaders.Course.loader`): keyed by its node, not by how it was
    reached."""
    return ("function", owner.site.rel, owner.site.start) if isinstance(owner, Func) else owner
