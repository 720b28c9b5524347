"""Registrations by convention: module-level names a framework reads (a model's `names:`,
extractors/models/named.py), such as the `urlpatterns` of a Django URLconf. Every item a
module puts in such a name — in a list literal, a `+=`, an `append` inside a loop over a
static list (one item per element, the engine's bounded unrolling) — is evaluated and
handed to the rule's hook on the module's object of the rule's role, with the fixed hook
signature (`call` is None: the registration is a statement, not a call; the source's
`item` is the value written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.engine.chains import unrolled
from extractors.engine.events import Event
from extractors.engine.values import Activation, Obj, Site, Value
from extractors.models.hooks import HOOKS
from extractors.models.named import module_site, written
from extractors.models.sources import FileSource

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import Library


class NameSource(FileSource):
    """What a convention hook reads: the item written (`item`, `arg0`), where it is written
    (`site`, `node`) and the loop activation it was evaluated in."""

    def __init__(self, ev: Evaluator, rel: str, node: TsNode, act: Activation | None,
                 value: Value):  # fmt: skip
        super().__init__(ev)
        self.rel, self.node, self.act, self._item = rel, node, act, value
        self.site: Site = ev.program.adapter(rel).site(node)  # type: ignore[union-attr]

    def arg(self, i: int) -> Value | None:
        return self._item if i == 0 else None

    def arg_count(self) -> int:
        return 1

    def member(self, value: Value, name: str) -> Value:
        return self.ev.member(value, name, self.rel, self.node, 1)


def name_events(ev: Evaluator, interp: Interpreter, library: Library) -> list[Event]:
    rules = [(model, rule) for model in library.models for rule in model.names]
    out: list[Event] = []
    for rel in sorted(ev.program.py) if rules else ():
        a = ev.program.adapter(rel)
        if a is None:
            continue
        for model, rule in rules:
            if rule.name.encode() not in a.sf.data:
                continue
            owner = Obj(model.id, rule.role, module_site(rel))
            for node in written(a.root, rule.name, a.text):
                for act in unrolled(ev, rel, a, node, None):
                    src = NameSource(ev, rel, node, act, ev.eval(rel, node, act))
                    out += HOOKS[rule.hook](interp, rule, owner, None, src)
    return out
