"""Express registrations' arguments: is the first one a mount path, what path is it,
and does a call on an unbound parameter look like Express at all.

A mixin of express.py's `_State` (it calls back `router_key` and `say`).
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import FUNCTION_TYPES, dotted_name, lookup_symbol, text, unwrap
from extractors.js.evaluate import Env, string_of
from extractors.js.model import ModuleInfo
from extractors.source import SourceFile

_PATH_NAME = re.compile(r"path|prefix|url|route|base|version|mount|root|api", re.I)


class PathRules:
    """Mount-path and Express-likeness rules of a registration's arguments."""

    ctx: ComponentContext

    def express_like(self, mod: ModuleInfo, args: list[TsNode]) -> bool:
        """A registration on an unbound parameter counts when the file uses express or the
        handler is written inline as `(req, res) => …`."""
        if any((b.package or "") == "express" for b in mod.imports.values()):
            return True
        last = unwrap(args[-1]) if args else None
        params = last.child_by_field_name("parameters") if last is not None else None
        return (
            last is not None
            and last.type in FUNCTION_TYPES
            and params is not None
            and (len(params.named_children) >= 2)
        )

    def is_path(self, mod: ModuleInfo, node: TsNode, env: Env, args: list[TsNode]) -> bool:
        """Whether `use`'s first argument is a mount path (else it is middleware)."""
        value, _ = string_of(self.ctx, mod, node, env)
        if value is not None:
            return True
        node = unwrap(node)
        if (
            len(args) < 2
            or node is None
            or node.type in FUNCTION_TYPES | {"call_expression", "array"}
        ):
            return False
        if node.type in {"template_string", "binary_expression"}:
            return True
        dotted = dotted_name(mod.sf, node) or ""
        if self.router_key(mod, node, env) or lookup_symbol(self.ctx, mod.rel, dotted):
            return False
        return "env." in dotted or bool(_PATH_NAME.search(dotted.split(".")[-1]))

    def path_of(self, mod: ModuleInfo, node: TsNode | None, env: Env) -> str:
        value, unknown = string_of(self.ctx, mod, node, env)
        line = SourceFile.line(node) if node is not None else 1
        expr = text(mod.sf, node) if node is not None else ""
        if value is None:
            self.say(mod.rel, line, "route", expr, "dynamic route path")
            return "<dynamic>"
        if unknown:
            self.say(mod.rel, line, "route", expr,
                     f"path part(s) not known statically: {', '.join(unknown)}")  # fmt: skip
        return value
