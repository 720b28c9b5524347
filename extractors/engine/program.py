"""The component's code as the engine sees it: one adapter per source file, and what a
module-level name, an import or an export stands for — across files, re-exports and index
modules, for both languages (over the module tables `js.typescript` and `python.symbols`
build)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Ext, Module, Unknown, Value
from extractors.lang.base import FileAdapter
from extractors.lang.files import adapter_of

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.engine.protocols import Evaluates as Evaluator

MAX_HOPS = 10  # re-export chains followed


class Program:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.js = ctx.shared.js.modules
        self.py = ctx.shared.py.modules
        self._adapters = ctx.shared.adapters  # one adapter per file, shared with other passes
        self._resolver = None
        self._exporting: set[tuple[str, str]] = set()  # top-level names being read

    def rels(self) -> list[str]:
        return sorted(set(self.js) | set(self.py))

    def adapter(self, rel: str) -> FileAdapter | None:
        found = self._adapters.get(rel)  # asked millions of times in bundled code: one lookup
        if found is None:
            mod = self.js[rel] if rel in self.js else self.py.get(rel)
            found = adapter_of(self.ctx, mod.sf) if mod is not None else None
        return found

    def family(self, rel: str) -> str:
        return "py" if rel in self.py else "js"

    # --- imports ------------------------------------------------------------------
    def imported(self, ev: Evaluator, rel: str, name: str, depth: int = 0) -> Value | None:
        """What a module-level imported name of `rel` is, or None when it is not imported."""
        if rel in self.js:
            binding = self.js[rel].imports.get(name)
            if binding is None:
                return None
            if binding.package or binding.target is None:
                spec = binding.spec
                if binding.target is None and binding.package is None:
                    return Unknown(name, f"import {spec}: no such file in the component")
                path = () if binding.imported in ("default", "*") else (binding.imported,)
                return Ext(spec, path)
            if binding.imported == "*":
                if binding.cjs:  # `require(spec)`: what `module.exports = …` made it
                    assigned = self.module_exports(ev, binding.target)
                    if assigned is not None:
                        return assigned
                if binding.cjs and "default" in self.js.get(binding.target, _EMPTY).exports:
                    return self.exported(ev, binding.target, "default", depth + 1)
                return Module(binding.target)
            return self.exported(ev, binding.target, binding.imported, depth + 1)
        mod = self.py.get(rel)
        if mod is None:
            return None
        binding = mod.bindings.get(name)
        if binding is None:
            dotted = next((k for k in mod.bindings if k.startswith(name + ".")), None)
            if dotted is None:
                return None
            binding = mod.bindings[dotted]
            if binding.target is None:
                return Ext(name)
        if binding.target is None:
            spec = binding.spec.lstrip(".")
            return Ext(spec, (binding.name,)) if binding.name else Ext(spec)
        if binding.name is None:
            return Module(binding.target)
        return self.exported(ev, binding.target, binding.name, depth + 1)

    def required(self, ev: Evaluator, rel: str, spec: str) -> Value:
        """`require(spec)` in `rel`: the module's `module.exports` (a package: the package)."""
        mod = self.js.get(rel)
        binding = next((b for b in mod.imports.values() if b.spec == spec), None) if mod else None
        target_rel = binding.target if binding is not None else self._resolve(rel, spec)
        if target_rel is None:
            if binding is not None or not spec.startswith("."):
                return Ext(spec)
            return Unknown(spec, "require of a file not in the component")
        assigned = self.module_exports(ev, target_rel)
        if assigned is not None:
            return assigned
        target = self.js.get(target_rel)
        if target is not None and "default" in target.exports:
            return self.exported(ev, target_rel, "default")
        return Module(target_rel)

    def module_exports(self, ev: Evaluator, rel: str) -> Value | None:
        """What `module.exports = …` makes a CommonJS module (the last such assignment)."""
        adapter = self.adapter(rel)
        if adapter is None or rel not in self.js:
            return None
        found = None
        for target, value in adapter.member_assignments():
            if (
                adapter.text(target).replace(" ", "") == "module.exports"
                and adapter.function_at(target) is None
            ):
                found = value
        return ev.eval(rel, found, None) if found is not None else None

    def _resolve(self, rel: str, spec: str) -> str | None:
        """A module spec written inline (`register(require('./books'))`) to its file."""
        if self._resolver is None:
            from extractors.js.resolve import Resolver
            from extractors.models import import_paths

            configs = {r: f.data for r, f in self.ctx.files.items() if r.endswith("config.json")}
            manifests = {r: f.data for r, f in self.ctx.files.items() if r.endswith("package.json")}
            self._resolver = Resolver(set(self.js), configs, import_paths(manifests))
        target, _, _ = self._resolver.resolve(rel, spec)
        return target

    def module_named(self, dotted: str) -> str | None:
        """The file of a dotted Python module name of the component (`shop.urls`)."""
        resolver = self.ctx.shared.py.resolver
        return resolver.by_name.get(dotted) if resolver is not None and dotted else None

    def import_name(self, ev: Evaluator, dotted: str) -> Value | None:
        """What a Python import name of the component is (`pkg.settings.Prod`, handed over as
        a string the library imports: Flask's `from_object`): the longest module prefix the
        component has, then the attributes after it; None when no prefix is a module here."""
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            rel = self.module_named(".".join(parts[:cut]))
            if rel is None:
                continue
            value: Value = Module(rel)
            for name in parts[cut:]:
                value = ev.member(value, name, rel, None, 1)
            return value
        return None

    def exported(self, ev: Evaluator, rel: str, name: str, depth: int = 0) -> Value:
        """What `name` exported from `rel` is (a Python module's top-level name). A name
        reached again while it is read is defined in terms of itself (`X =
        getattr(this_module, "X", d)`, two modules reading each other's names): unknown —
        the evaluation depth restarts at each module's top-level name, so nothing else
        would end the cycle."""
        key = (rel, name)
        if key in self._exporting:
            return Unknown(name, "defined in terms of itself")
        self._exporting.add(key)
        try:
            return self._exported(ev, rel, name, depth)
        finally:
            self._exporting.discard(key)

    def _exported(self, ev: Evaluator, rel: str, name: str, depth: int) -> Value:
        if depth > MAX_HOPS:
            return Unknown(name, "re-export chain too long")
        if rel in self.py:
            adapter = self.adapter(rel)
            if adapter is None:
                return Unknown(name, "no module")
            binding = adapter.resolve(name, adapter.root)
            if binding is not None and binding.kind != "import":
                return ev.binding_value(rel, adapter, binding, None, adapter.root, 0)
            found = self.imported(ev, rel, name, depth + 1)
            if found is not None:
                return found
            if self._is_package(rel):  # `from pkg import submodule`
                sub = self._submodule(rel, name)
                if sub is not None:
                    return Module(sub)
            return Unknown(name, f"{rel} defines no {name}")
        mod = self.js.get(rel)
        if mod is None:
            return Unknown(name, "no module")
        if name in mod.exports:
            local = mod.exports[name]
            if local in mod.imports:
                return self.imported(ev, rel, local, depth + 1) or Unknown(name, "import")
            return self.module_name(ev, rel, local)
        if name in mod.reexports:
            target, imported = mod.reexports[name]
            return self.exported(ev, target, imported, depth + 1)
        for target in mod.star_reexports:
            if self._exports(target, name, depth + 1):
                return self.exported(ev, target, name, depth + 1)
        if name == "default" and mod.consts.get("default") is not None:
            return self.module_name(ev, rel, "default")
        if name == "default":  # `import cfg from './cfg'` of a CommonJS module: its exports
            assigned = self.module_exports(ev, rel)
            if assigned is not None:
                return assigned
        adapter = self.adapter(rel)
        binding = adapter.resolve(name, adapter.root) if adapter is not None else None
        if binding is not None and binding.path and _exported_statement(binding.node):
            return ev.binding_value(
                rel, adapter, binding, None, adapter.root, 0
            )  # `export const { a } = x`
        return Unknown(name, f"{rel} exports no {name}")

    def _exports(self, rel: str, name: str, depth: int) -> bool:
        mod = self.js.get(rel)
        if mod is None or depth > MAX_HOPS:
            return False
        if name in mod.exports or name in mod.reexports:
            return True
        return any(self._exports(t, name, depth + 1) for t in mod.star_reexports)

    def module_name(self, ev: Evaluator, rel: str, name: str) -> Value:
        """A top-level name of a JS module: a declaration, or a CommonJS export's value."""
        adapter = self.adapter(rel)
        mod = self.js.get(rel)
        if adapter is None or mod is None:
            return Unknown(name, "no module")
        binding = adapter.resolve(name, adapter.root) if name != "default" else None
        if binding is not None:
            return ev.binding_value(rel, adapter, binding, None, adapter.root, 0)
        node = mod.consts.get(name)
        if node is not None:
            return ev.eval(rel, node, None)
        imported = self.imported(ev, rel, name)
        return imported if imported is not None else Unknown(name, f"{rel}: no top-level {name}")

    def declaration(self, rel: str, name: str, at=None, depth: int = 0):
        """(file, binding) declaring a name used in `rel` (a variable with its value),
        through imports and re-exports, for both languages; None for what is not declared
        in the component."""
        adapter = self.adapter(rel)
        if adapter is None or depth > MAX_HOPS:
            return None
        binding = adapter.resolve(name, at if at is not None else adapter.root)
        mod = self.js.get(rel)
        imported = mod.imports.get(name) if mod is not None else None
        if (
            binding is not None
            and binding.kind != "import"
            and not (imported is not None and imported.target and binding.scope.parent is None)
        ):  # `const { A } = require('./m')` at module level is an import of `A`
            return rel, binding
        if rel in self.py:
            found = self.py[rel].bindings.get(name)
            if found is not None and found.target and found.name:
                return self.declaration(found.target, found.name, None, depth + 1)
            return None
        if imported is None or imported.target is None:
            return None
        if imported.imported == "*" and not imported.cjs:
            return None  # `import * as ns`: a namespace, declared nowhere
        wanted = "default" if imported.imported == "*" else imported.imported  # `require(m)`
        return self.exported_declaration(imported.target, wanted, depth + 1)

    def exported_declaration(self, rel: str, name: str, depth: int = 0):
        """(file, binding) declaring what the JS module `rel` exports as `name`, through
        re-exports (`export { a } from`, `export * from`, `module.exports.a = require(…)`)."""
        target = self.js.get(rel)
        if target is None or depth > MAX_HOPS:
            return None
        if name in target.reexports:
            source, original = target.reexports[name]
            return self.declaration(source, original, None, depth + 1)
        local = target.exports.get(name)
        if local:
            return self.declaration(rel, local, None, depth + 1)
        for other in target.star_reexports:
            found = self.exported_declaration(other, name, depth + 1)
            if found is not None:
                return found
        return None

    def _is_package(self, rel: str) -> bool:
        return rel.endswith("__init__.py")

    def _submodule(self, rel: str, name: str) -> str | None:
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        for candidate in (f"{folder}/{name}.py", f"{folder}/{name}/__init__.py"):
            candidate = candidate.lstrip("/")
            if candidate in self.py:
                return candidate
        return None


def _exported_statement(node) -> bool:
    """A declaration written inside `export …` (a destructuring one the module tables skip)."""
    while node is not None and node.type not in ("program", "export_statement"):
        node = node.parent
    return node is not None and node.type == "export_statement"


class _Empty:
    exports: dict = {}


_EMPTY = _Empty()
