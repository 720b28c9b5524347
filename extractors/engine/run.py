"""The engine as registry extractors: `engine.run` analyses the component once (every
model's events, the mount tree, the emitter with its symbol index), `engine.routes` emits
the routes, mounts, middleware and prefix settings, `engine.requests` the HTTP calls.

Two emitting extractors, not one, while the old modules are replaced concern by concern
(issue 26's migration): the registry lists what the engine owns today."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.base import ComponentContext
from extractors.engine.config_sources import env_file_values
from extractors.engine.decorators import Decorators
from extractors.engine.emit import Emitter
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import MountEvent, PrefixEvent, RouteEvent, UseEvent
from extractors.engine.interpret import Interpreter
from extractors.engine.mounts import MountTree
from extractors.engine.program import Program
from extractors.engine.recognize import Found, Recognizer
from extractors.models import all_models
from extractors.models.runtime import Library
from extractors.shared import EngineRun, JsSymbols, PyModules

NAME = "engine"
PROVIDES = (EngineRun,)
REQUIRES = (JsSymbols, PyModules)
GENERATED = (b"generated", b"do not edit", b"@generated")


@dataclass
class Analysis:
    found: list[Found]
    tree: MountTree
    emitter: Emitter


def extract(ctx: ComponentContext) -> None:
    ctx.shared.engine.result = analyse(ctx)


def analyse(ctx: ComponentContext) -> Analysis | None:
    program = Program(ctx)
    if not program.rels():
        return None
    library = Library(list(all_models()))
    ev = Evaluator(program, library)
    interp = Interpreter(ev, library)
    interp.decorators = Decorators(ev, library)
    recognizer = Recognizer(ev, interp, generated=generated_files(program))
    found = recognizer.run()
    for row in recognizer.unresolved:
        ctx.unresolved(*row)
    tree = MountTree(library)
    for item in found:
        if isinstance(item.event, (RouteEvent, MountEvent, UseEvent, PrefixEvent)):
            tree.add(item.event)
    return Analysis(found, tree, Emitter(ctx, ev, env_files=env_file_values(ctx)))


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
