"""The engine as a registry extractor: routes, mounts, middleware and HTTP calls of both
languages, from the models."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.config_sources import env_file_values
from extractors.engine.decorators import Decorators
from extractors.engine.emit import Emitter
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import MountEvent, PrefixEvent, RouteEvent, UseEvent
from extractors.engine.interpret import Interpreter
from extractors.engine.mounts import MountTree
from extractors.engine.program import Program
from extractors.engine.recognize import Recognizer
from extractors.models import all_models
from extractors.models.runtime import Library
from extractors.shared import CodeSymbols, JsSymbols, PyModules

NAME = "engine"
GENERATED = (b"generated", b"do not edit", b"@generated")


def generated_files(program: Program) -> set[str]:
    """Files a code generator wrote (their header says so): an SDK's functions are wrappers,
    the application's calls of them the call sites."""
    out = set()
    for rel in program.rels():
        a = program.adapter(rel)
        head = a.sf.data[:600].lower() if a is not None else b""
        if any(marker in head for marker in GENERATED):
            out.add(rel)
    return out
PROVIDES = (CodeSymbols,)
REQUIRES = (JsSymbols, PyModules)


def extract(ctx: ComponentContext) -> None:
    program = Program(ctx)
    if not program.rels():
        return
    library = Library(list(all_models()))
    ev = Evaluator(program, library)
    interp = Interpreter(ev, library)
    interp.decorators = Decorators(ev, library)
    found = Recognizer(ev, interp, generated=generated_files(program)).run()
    tree = MountTree(library)
    for item in found:
        if isinstance(item.event, (RouteEvent, MountEvent, UseEvent, PrefixEvent)):
            tree.add(item.event)
    emitter = Emitter(ctx, ev, env_files=env_file_values(ctx))
    emitter.routes(tree.routes())
    emitter.requests(found)
    emitter.catalog()
