"""Names of the evaluator: a name followed to its binding (a declaration, a parameter bound
by a call or left symbolic, a loop variable, an import, a global), destructuring, the
parameter a model or an injector knows by its type or decorator, and `this` / `self`.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.values import (
    Activation,
    ArrLit,
    Choice,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    ObjLit,
    Param,
    Seq,
    Typed,
    Unknown,
    Value,
    choice,
)
from extractors.lang.base import Binding, FileAdapter
from extractors.lang.expr import (
    EObject,
)


class Names:
    """`Evaluator`'s names: what a name, a parameter and `this` are where they are read."""

    def name(self, rel: str, a: FileAdapter, at: TsNode, name: str, act, depth: int) -> Value:
        binding = a.resolve(name, at)
        if binding is None or binding.kind == "import":
            found = self.imported_as(rel, name, binding)
            if found is not None:
                return found
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

    def imported_as(self, rel: str, name: str, binding: Binding | None) -> Value | None:
        """What an imported name is: a module of the component's export, else the package's
        (`from sqlalchemy.orm import relationship`, which the module tables skip)."""
        found = self.program.imported(self, rel, name)
        if found is not None:
            return found
        if binding is not None and binding.path and not binding.path[0].startswith("."):
            module, imported = binding.path
            return Ext(module, (imported,)) if imported else Ext(module)
        return None

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
        declared = _reaching(a, a.bindings(b), at, b.scope)  # type: ignore[attr-defined]
        # branches are judged with the values of a call, or at module level: a function's
        # own conditions on parameters nobody bound cannot be decided
        judge = len(declared) > 1 and (outer is not None or b.scope.parent is None)
        # `pos += 1` changes the parameter in a way not followed: it is no value of its own
        grown = any(d.kind == "assign" and d.value is None for d in declared)
        live: list[Binding] = []  # the assignments judged to run, when branches were judged
        for decl in declared:
            if decl.kind == "param" and not grown:  # `if client is None: client = …`
                values.append(self._param(rel, a, decl, act, depth))
            if decl.kind == "import":  # `relationship = relationship`: what was imported
                imported = self.imported_as(rel, decl.name, decl)
                if imported is not None:
                    values.append(imported)
            if decl.value is None or _inside(at, decl.value) or decl.node.id in self._judged:
                continue  # read on its own right side, or in its guard: what it was before
            if judge and self.judged_dead(rel, a, decl.node, b.scope, outer, depth):
                continue  # `if host is None: url = …` with a host: not one of the values
            if judge:
                live.append(decl)
            here = outer if outer is not None or act is None else _in_loop(a, decl.node, act)
            if here is not None and here is not outer:  # a loop pass: once per pass
                key = (decl.value.id, here)
                value = self._loop_values.get(key)
                if value is None:
                    value = self._loop_values[key] = self.eval(rel, decl.value, here, depth)
            else:
                value = self.eval(rel, decl.value, here, depth)
            values.append(self.path_of(value, decl.path, rel, at, depth))
        if Lit(None) in values and any(  # `if client is None: client = …` ran: not None now
            self.judged_certain(rel, a, d.node, b.scope, outer, depth) for d in live
        ):
            values = [v for v in values if v != Lit(None)] or values
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
        if a.family == "py" and b.index >= 0:  # a test's parameter a fixture fills by name
            fixture = self.library.fixture(self, rel, b)
            if fixture is not None:
                return fixture
        return Param(b.name, scope)

    def _typed(self, rel: str, a: FileAdapter, annotation: TsNode, depth: int) -> Value | None:
        """A parameter known by its declared type: what the models make of that type."""
        node = _annotated_class(a, annotation)
        if node is None:
            return None
        name = a.text(node).strip("\"'")
        head = name.split(".")[0]
        binding = a.resolve(head, annotation)
        if binding is not None and binding.kind == "param":  # a type is never a parameter
            # of its own function (`pdb: pdb.Pdb` names the module): read outside it
            outside = binding.scope.parent
            binding = a.resolve(head, outside) if outside is not None else None
        value = (self.binding_value(rel, a, binding, None, annotation, depth + 1)
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

    def path_of(self, value: Value, path: tuple, rel: str, at, depth: int) -> Value:
        """A destructured part of a value (`const { a: [b] } = v`)."""
        for step in path:
            if step == "...":
                return value
            if isinstance(step, int):
                if isinstance(value, ArrLit):
                    value = value.items[step] if step < len(value.items) else Unknown("", "no item")
                elif _returned_tuple(value):  # `pos, value = parse(src, pos)`: parsers
                    value = Unknown("", "unpacked from a returned tuple")  # thread it everywhere
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


def _inside(at: TsNode | None, value: TsNode) -> bool:
    """Whether the read at `at` is part of the value assigned (the name read on the right
    of its own reassignment)."""
    return at is not None and value.start_byte <= at.start_byte < value.end_byte


def _reaching(
    a: FileAdapter, declared: list[Binding], at: TsNode | None, scope: TsNode
) -> list[Binding]:
    """The bindings of a name that can be its value where it is read: not one that an
    assignment always run later, and before the read, replaces (`url = base + url` reads the
    parameter; a read after it, the sum). A read of the module itself (`at` the root) is at
    its end."""
    if at is None or len(declared) < 2:
        return declared
    read = at.end_byte if at.parent is None else at.start_byte
    if at.parent is not None:  # an assignment written after the read, run only after it
        declared = [d for d in declared if not _after(a, d, at, read, scope)]
    later = [d.node for d in declared if d.value is not None and d.node.end_byte <= read
             and a.runs_always(d.node, scope)]  # fmt: skip
    if not later:
        return declared
    last = max(n.start_byte for n in later)
    return [d for d in declared if d.node.start_byte >= last or d.node.end_byte > read]


LOOPS = {"for_statement", "for_in_statement", "while_statement", "do_statement"}


def _after(a: FileAdapter, d: Binding, at: TsNode, read: int, scope: TsNode) -> bool:
    """An assignment written after the read that cannot be the read's value: the read runs in
    the binding's own function (not a closure that may run later) and no loop of that
    function holds both, so the assignment only ever runs after the read."""
    if d.value is None or d.kind not in ("decl", "assign") or d.node.start_byte < read:
        return False
    home = scope if a.is_function(scope) else a.function_at(scope)
    if a.function_at(at) != home:
        return False  # read in a closure: it may run after the assignment
    node = at.parent
    while node is not None and node != home:
        if node.type in LOOPS and node.start_byte <= d.node.start_byte < node.end_byte:
            return False  # the next turn of the loop reads what this one assigned
        node = node.parent
    return True


def _returned_tuple(value: Value) -> bool:
    """A bare tuple a function returns (or one of several). Unpacking one is not followed:
    a recursive-descent parser passes its position through every function as such a tuple,
    and reading it back multiplied the cost of small libraries by 2-3 for no request; a
    tuple spread into a call (`call_api(*params)`) is followed."""
    options = value.options if isinstance(value, Choice) else (value,)
    return any(isinstance(option, Seq) for option in options)


# a Python annotation's wrappers whose first argument is the class (`Optional[User]`)
# (`Union[A, B]` and `A | B` name two classes: no one class is the parameter's)
TYPE_WRAPPERS = {"Optional", "Annotated", "Type", "type", "ClassVar", "Final"}
NAMED = {"type_identifier", "identifier", "nested_type_identifier", "attribute"}


def _annotated_class(a: FileAdapter, annotation: TsNode) -> TsNode | None:
    """The node naming the class an annotation declares: `User`, `models.User`, `"User"` (a
    forward reference), `Optional[User]`, `Annotated[User, …]`, `User | None`."""
    node: TsNode | None = annotation
    while node is not None:
        kind = node.type
        if kind in ("type_annotation", "type") and node.named_children:
            node = node.named_children[0]
        elif kind in ("generic_type", "subscript") and node.named_children:
            head = node.named_children[0]
            if a.family != "py" or a.text(head).rsplit(".", 1)[-1] not in TYPE_WRAPPERS:
                node = head
                continue
            args = [c for c in node.named_children[1:] if c.type != "comment"]
            if args and args[0].type == "type_parameter":
                args = [c for c in args[0].named_children if c.type != "comment"]
            node = args[0] if args else None
        elif kind == "binary_operator" and a.family == "py":  # `User | None`
            right = node.child_by_field_name("right")
            if right is None or a.text(right) != "None":
                return None
            node = node.child_by_field_name("left")
        elif kind == "string" and a.family == "py":
            text = a.text(node).strip("\"'")
            return node if text.replace(".", "").replace("_", "").isalnum() else None
        else:
            return node if kind in NAMED else None
    return None


# the loops whose passes are unrolled over a static list (`chains.unrolled`): `for … of`,
# `for … in`, Python's `for`
UNROLLED = ("for_in_statement", "for_statement")


def _in_loop(a: FileAdapter, node: TsNode, act: Activation) -> Activation | None:
    """The activation of an unrolled loop whose body assigns the variable (`for name in
    NAMES: module = import_module(f"app.{name}")`): the body's variables, in the scope around
    the loop, read the element of that pass."""
    parent = node.parent
    while parent is not None and not a.is_function(parent):
        if parent.type in UNROLLED:
            found = act.find(a.scope_of(parent))
            if found is not None:
                return found
        parent = parent.parent
    return None
