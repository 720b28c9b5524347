"""The engine's one evaluator for extractors that are not models yet (cookie accesses, SDK
document paths): what text an expression is, holes as `{name}`, and the expression a name
stands for — so no second evaluator of strings lives beside the engine."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.engine.middleware import definition
from extractors.engine.values import Choice, Concat, Config, Env, Lit, Param, Unknown, Value


@dataclass(frozen=True)
class Written:
    """An expression as written: its file and node."""

    rel: str
    node: TsNode


def _evaluator(ctx: ComponentContext):
    analysis = ctx.shared.engine.result
    return analysis.emitter.ev if analysis is not None else None


def text_at(ctx: ComponentContext, rel: str, node: TsNode | None) -> str | None:
    """The text the expression evaluates to — literals, templates, `+`, constants across
    files, object members, `path.join` — an unknown part inside it as `{name}`; None when
    nothing of it is known."""
    ev = _evaluator(ctx)
    if ev is None or node is None:
        return None
    value = ev.eval(rel, node, None)
    if isinstance(value, Choice):
        value = value.options[0]
    parts = value.parts if isinstance(value, Concat) else (value,)
    if not any(isinstance(p, Lit) and p.value not in (None, "") for p in parts):
        return None
    return "".join(_part(p) for p in parts)


def _part(part: Value) -> str:
    if isinstance(part, Lit):
        return "" if part.value is None else str(part.value)
    if isinstance(part, Env):
        return "{" + part.name + "}"
    if isinstance(part, Config):
        return "{" + part.key + "}"
    if isinstance(part, Param):  # as written: `{image.name}`
        return "{" + part.name + "}"
    if isinstance(part, Unknown) and part.expr:
        return "{" + " ".join(part.expr.split())[:60] + "}"
    return "{?}"


def defined_as(ctx: ComponentContext, rel: str, node: TsNode | None) -> Written | None:
    """The expression a name stands for (its declaration's initializer, through imports),
    else None."""
    ev = _evaluator(ctx)
    if ev is None or node is None or node.type != "identifier":
        return None
    found = definition(ev, rel, node)
    if found is None:
        return None
    where, _, init = found
    a = ev.program.adapter(where)
    return Written(where, a.unwrap(init) if a is not None else init)
