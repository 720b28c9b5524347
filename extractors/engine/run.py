"""The engine as a registry extractor: routes, mounts, middleware and HTTP calls of both
languages, from the models."""

from __future__ import annotations

from dataclasses import replace

from extractors.base import ComponentContext
from extractors.engine.config_sources import env_file_values
from extractors.engine.decorators import Decorators
from extractors.engine.emit import Emitter
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import (
    MountEvent,
    PrefixEvent,
    RequestEvent,
    RouteEvent,
    TransformEvent,
    UseEvent,
)
from extractors.engine.interpret import Interpreter
from extractors.engine.mounts import MountTree
from extractors.engine.program import Program
from extractors.engine.recognize import Found, Recognizer
from extractors.engine.transforms import Transforms, provided_transforms
from extractors.models import all_models
from extractors.models.runtime import Library
from extractors.shared import CodeSymbols, JsSymbols, PyModules

NAME = "engine"
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
    generated = generated_files(program, library)
    found = Recognizer(ev, interp, generated=generated).run()
    found = [f for f in found if not _inside(f, generated)]
    transforms = [f.event for f in found if isinstance(f.event, TransformEvent)]
    transforms += provided_transforms(ev, library)
    if transforms:
        applied = Transforms(ev, transforms)
        found = [replace(f, event=applied.apply(f.event)) if isinstance(f.event, RequestEvent) else f
                 for f in found]  # fmt: skip
    tree = MountTree(library)
    for item in found:
        if isinstance(item.event, (RouteEvent, MountEvent, UseEvent, PrefixEvent)):
            tree.add(item.event)
    emitter = Emitter(ctx, ev, env_files=env_file_values(ctx))
    emitter.routes(tree.routes())
    emitter.requests(found)
    emitter.catalog()


HEADER = 2048  # bytes of a file read for a generator's marker


def generated_files(program: Program, library: Library) -> set[str]:
    """Files a code generator wrote, by the header markers its model names (`THIS FILE WAS
    GENERATED VIA SWAGGER-TYPESCRIPT-API`): their functions are the client's wrappers."""
    markers = [m for model in library.models for m in model.generated]
    out = set()
    for rel in program.rels() if markers else ():
        a = program.adapter(rel)
        head = a.sf.data[:HEADER].decode("utf-8", "replace").lower() if a is not None else ""
        if any(marker in head for marker in markers):
            out.add(rel)
    return out


def _inside(item: Found, generated: set[str]) -> bool:
    """A request whose call site is generated client code: the client's own internals (its
    methods nobody calls, its fetch wrapper), not a call of the application."""
    if not isinstance(item.event, RequestEvent):
        return False
    site = item.chain[-1] if item.chain else item.event.site
    return site.rel in generated
