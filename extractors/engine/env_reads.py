"""Environment variable reads, found by evaluation: every member read, subscript and call of a
file is evaluated with the engine's evaluator, and one whose value is `Env(name)` — where no
part of it already was that read — is a read site. The models say what reads the environment
(`process.env`, `os.environ.get`, `env("X")` of django-environ, a settings class's fields, a
config key a model maps to a variable); the evaluator follows the value wherever the program
carries it (a validated env object, a config module's exported property, a settings instance
passed as a parameter), so `config.jwt.secret` in another file is a read of the variable
behind it at that line.

`via` says how the value was read: where a model's object reads it directly, the model's
`env_reads.via` label for the object's role (else the receiver as written, `process.env`);
elsewhere, the model's `env_reads.uses` label (else the expression as written).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.engine.values import (
    Choice,
    Concat,
    Env,
    Ext,
    Instance,
    Klass,
    Method,
    Obj,
    Typed,
    Value,
)
from extractors.lang.base import FileAdapter

PATTERNS = ("object_pattern",)  # JS destructuring: `const { A } = process.env`
READS = {"py": ("attribute", "subscript", "call"),
         "js": ("member_expression", "subscript_expression", "call_expression")}  # fmt: skip
CALLS = ("call", "call_expression")
ASSIGNS = ("assignment", "assignment_expression", "augmented_assignment",
           "augmented_assignment_expression")  # fmt: skip


@dataclass
class EnvRead:
    """One read of variable `name` at `node` of `rel`."""

    rel: str
    node: TsNode
    name: str
    via: str
    attrs: dict = field(default_factory=dict)
    derived: bool = False  # read off a value the program carried, not a model's object


class EnvReads:
    def __init__(self, ev, library) -> None:
        self.ev = ev
        self.lib = library
        self._names: dict[str, set[str] | None] = {}  # per language family

    def file(self, rel: str, family: str) -> list[EnvRead]:
        a = self.ev.program.adapter(rel)
        if a is None:
            return []
        out: list[EnvRead] = []
        if family == "py":
            out += self.settings_fields(rel, a)
        for node in _nodes(a, family, self._call_names(family)):
            if node.type in PATTERNS:
                out += self.destructured(rel, a, node)
                continue
            parent = node.parent
            if (
                parent is not None
                and parent.type in CALLS
                and node.type not in CALLS
                and parent.child_by_field_name("function").end_byte == node.end_byte
            ):
                continue  # the function a call calls (`axios.post` of `axios.post(url)`)
            if parent is not None and (_written(node) or _written(parent)):
                continue
            if node.type in CALLS and self._reader(rel, node) is None:
                continue  # a call reads only through a model's object (see `read`)
            evaluated = self.ev.eval(rel, node, None)
            one = env_of(evaluated)
            for value in [one] if one is not None else _built_from(evaluated):
                read = self.read(rel, a, node, value)
                if read is not None:
                    out.append(read)
        return out

    def _call_names(self, family: str) -> set[str] | None:
        """The method names a model of the language reads the environment or configuration
        with (`get`, `getOrThrow`); None when a model's object is itself called for it
        (`getenv("X")`, `config("X")`): then any call may be a read."""
        if family not in self._names:
            ops = [op for m in self.lib.models if m.family == family
                   for op in m.operations if op.action in ("env", "config")]  # fmt: skip
            names = {name for op in ops for name in op.calls}
            self._names[family] = None if "()" in names else names
        return self._names[family]

    def read(self, rel: str, a: FileAdapter, node: TsNode, value: Env) -> EnvRead | None:
        """The read at `node`, or None when it is no read site: a call that hands back a
        value read elsewhere (a function of the component, `str(x)`) reads nothing itself."""
        receiver = _receiver(node)
        if node.type in CALLS:
            held = self._reader(rel, node)
        else:
            received = self.ev.eval(rel, receiver, None) if receiver is not None else None
            held = self._held(received) if received is not None else None
        if held is not None:
            return EnvRead(rel, node, value.name, self.label(held, _receiver_text(a, receiver)))
        if node.type in CALLS:
            return None
        model = self.lib.by_id.get(value.via)
        data = model.env_reads if model is not None else {}
        via = data.get("uses") or " ".join(a.text(node).split())
        attrs = {}
        klass = _class_of(self.ev, received) if received is not None else None
        if data.get("uses") and klass is not None and node.type == "attribute":
            attrs = {"field": a.text(node.child_by_field_name("attribute")),
                     "settings_class": klass.name}  # fmt: skip
        return EnvRead(rel, node, value.name, via, attrs, derived=True)

    def destructured(self, rel: str, a: FileAdapter, pattern: TsNode) -> list[EnvRead]:
        """`const { A, B: b, C = "x" } = source`: each property whose bound value is a
        variable is read at its own line (nested patterns are walked on their own)."""
        found = _pattern_source(a, pattern)
        if found is None:
            return []
        source, path = found
        out = []
        for prop in pattern.named_children:
            leaf = _leaf(prop)
            binding = a.resolve(a.text(leaf), leaf) if leaf is not None else None
            if binding is None or binding.node is None:
                continue
            value = env_of(self.ev.binding_value(rel, a, binding, None, leaf, 0))
            if value is None:
                continue
            held = None if path else self._held(self.ev.eval(rel, source, None))
            key = prop.child_by_field_name("key") or leaf
            written = " ".join(a.text(source).split())
            via = (
                self.label(held, written) if held is not None else f"{written}{path}.{a.text(key)}"
            )
            out.append(EnvRead(rel, prop, value.name, via, derived=held is None))
        return out

    def label(self, held: Obj, written: str) -> str:
        """`via` for a read off a model object: the model's label for the object's role, its
        `{receiver}` the object as written — the global itself (`process.env`) is labelled as
        written; without a label, the receiver as written."""
        model = self.lib.by_id.get(held.model)
        label = ((model.env_reads.get("via") or {}) if model is not None else {}).get(held.role)
        if label is None:
            return written
        if "{receiver}" in label:
            globals_ = [m.target for m in model.objects.get(held.role, ()) if m.how == "global"]
            return written if written in globals_ else label.format(receiver=written)
        return label

    def _reader(self, rel: str, call: TsNode) -> Obj | None:
        """The model object a call reads through — its callee (`getenv`, `config`) or its
        receiver (`os.environ` of `os.environ.get`) — else None: a call of a function of
        the component hands back what is read elsewhere, and reads nothing itself."""
        callee = self._held(self.ev.eval(rel, call.child_by_field_name("function"), None))
        if callee is not None:
            return callee
        receiver = _receiver(call)
        return self._held(self.ev.eval(rel, receiver, None)) if receiver is not None else None

    def _held(self, value: Value) -> Obj | None:
        """The model object a receiver is when it reads the environment itself."""
        if isinstance(value, Method):
            value = value.target
        if isinstance(value, Ext):
            value = self.lib.claim(value)
        return value if isinstance(value, Obj) and value.model in self.lib.by_id else None

    def settings_fields(self, rel: str, a: FileAdapter) -> list[EnvRead]:
        """Each field declared in a settings class is read where it is declared."""
        out = []
        for node in sorted(a.classes(), key=lambda n: (n.end_byte, -n.start_byte)):  # inner first
            info = a.klass(node)
            klass = Klass(a.site(node), info.name if info else "")
            made = self.lib._derived(self.ev, klass, 0) if info is not None else None
            model = self.lib.by_id.get(made.model) if made is not None else None
            if model is None or model.reads.get(made.role) != "env-field":
                continue
            config = model.env_reads.get("config") or {}
            env_file = _class_setting(self.ev, config, klass, "env_file")
            for name, annotation in info.field_types.items():
                if name.startswith("_") or a.text(annotation).startswith("ClassVar"):
                    continue
                if name in (config.get("attrs") or []):
                    continue
                value = self.ev.class_member(klass, name, 0)
                if not isinstance(value, Env):
                    continue
                attrs = {"field": name, **({"env_file": env_file} if env_file else {})}
                via = (model.env_reads.get("via") or {}).get(made.role, model.id)
                out.append(EnvRead(rel, annotation.parent, value.name, via, attrs))
        return out


def _class_setting(ev, config, klass, key):
    from extractors.models.env_fields import class_setting

    return class_setting(ev, config, klass, key)


def env_of(value: Value) -> Env | None:
    """The variable a value is: an `Env`, or a choice among defaults of one variable (a
    settings field each subclass defaults differently)."""
    options = value.options if isinstance(value, Choice) else ()
    if options and all(isinstance(o, Env) for o in options) and len({o.name for o in options}) == 1:
        return options[0]
    return value if isinstance(value, Env) else None


def _built_from(value: Value) -> list[Env]:
    """The variables a value is built from: the parts of text (`base + "/v1"`) and the
    alternatives of a choice (`config.env`, reassigned by a test) that are variables."""
    if isinstance(value, Env):
        return [value]
    parts = value.parts if isinstance(value, Concat) else \
        value.options if isinstance(value, Choice) else ()  # fmt: skip
    out: list[Env] = []
    for part in parts:
        out += [e for e in _built_from(part) if all(e.name != o.name for o in out)]
    return out


def _class_of(ev, value: Value) -> Klass | None:
    """The settings class a receiver is an instance of: for a choice (one subclass per
    environment), the nearest base class they all share."""
    if isinstance(value, Choice):
        chains = [_bases(ev, _class_of(ev, o)) for o in value.options]
        shared = [k for k in chains[0] if all(k in chain for chain in chains[1:])]
        return shared[0] if shared else None
    if isinstance(value, Typed):
        value = value.type
    if isinstance(value, Instance):
        value = value.klass
    return value if isinstance(value, Klass) else None


def _bases(ev, klass: Klass | None, depth: int = 0) -> list[Klass]:
    """A class and its component base classes, nearest first."""
    if klass is None or depth > 6:
        return []
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None else None
    info = a.klass(node) if node is not None else None
    out = [klass]
    for base in info.bases if info is not None else []:
        parent = ev.eval(klass.site.rel, base, None)
        if isinstance(parent, Klass):
            out += [k for k in _bases(ev, parent, depth + 1) if k not in out]
    return out


def _nodes(a: FileAdapter, family: str, names: set[str] | None) -> list[TsNode]:
    """The member reads, subscripts, calls (and JS object patterns) of a file, in order; of
    the JS calls, only those of a method or function `names` has when it is given."""
    calls = a.calls()
    if family == "js":
        calls = [c for c in calls if c.type == "call_expression"]
        if names:
            calls = [c for c in calls if (f := c.child_by_field_name("function")) is not None
                     and a.terminal(f) in names]  # fmt: skip
    return sorted([*a.reads(), *calls], key=lambda n: (n.start_byte, -n.end_byte))


def _written(node: TsNode) -> bool:
    """The target of an assignment (`os.environ["X"] = v`, `self.x = …`), not a read."""
    parent = node.parent
    if parent is None:
        return False
    left = parent.child_by_field_name("left") if parent.type in ASSIGNS else None
    return left is not None and (left.start_byte, left.end_byte) == (node.start_byte, node.end_byte)


def _receiver(node: TsNode) -> TsNode | None:
    """The object a read is made on: `process.env` of `process.env.X`, `os.environ` of
    `os.environ.get("X")`, `getenv` of `getenv("X")`."""
    if node.type in ("call", "call_expression"):
        callee = node.child_by_field_name("function")
        if callee is not None and callee.type in READS["py"] + READS["js"]:
            inner = callee.child_by_field_name("object") or callee.child_by_field_name("value")
            return inner if inner is not None else callee
        return callee
    return node.child_by_field_name("object") or node.child_by_field_name("value")


def _pattern_source(a: FileAdapter, pattern: TsNode) -> tuple[TsNode, str] | None:
    """What a declaration's object pattern destructures (the declarator's value) and, for a
    nested pattern (`const { jwt: { secret } } = config`), the keys above it (`.jwt`)."""
    parent, path = pattern.parent, ""
    while parent is not None and parent.type == "pair_pattern":
        key = parent.child_by_field_name("key")
        path = f".{a.text(key)}{path}" if key is not None else path
        parent = parent.parent.parent if parent.parent is not None else None
    value = parent.child_by_field_name("value") if parent is not None else None
    if parent is None or parent.type != "variable_declarator" or value is None:
        return None
    return value, path


def _leaf(prop: TsNode) -> TsNode | None:
    """The name a pattern property binds: `A`, `b` of `B: b`, `C` of `C = "x"`."""
    if prop.type == "shorthand_property_identifier_pattern":
        return prop
    if prop.type == "pair_pattern":
        value = prop.child_by_field_name("value")
        if value is not None and value.type == "assignment_pattern":
            value = value.child_by_field_name("left")
        return value if value is not None and value.type == "identifier" else None
    if prop.type == "object_assignment_pattern":
        return prop.child_by_field_name("left")
    return None


def _receiver_text(a: FileAdapter, node: TsNode) -> str:
    return "".join(a.text(node).split())
