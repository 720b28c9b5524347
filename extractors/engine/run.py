"""The engine as registry extractors: `engine.run` analyses the component once (every
model's events, the mount tree, the emitter with its symbol index), `engine.routes` emits
the routes, mounts, middleware and prefix settings, `engine.requests` the HTTP calls.

Two emitting extractors, not one, while the old modules are replaced concern by concern
(issue 26's migration): the registry lists what the engine owns today."""

from __future__ import annotations

from dataclasses import dataclass, replace

from extractors.base import ComponentContext
from extractors.engine.config_sources import env_file_values
from extractors.engine.conventions import name_events
from extractors.engine.decorators import Decorators
from extractors.engine.defines import collect_defines
from extractors.engine.emit import Emitter
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import (
    InvokeEvent,
    MountEvent,
    NamingEvent,
    PrefixEvent,
    RequestEvent,
    RouteEvent,
    TransformEvent,
    UseEvent,
)
from extractors.engine.filesystem import file_events
from extractors.engine.groups import regroup
from extractors.engine.heuristic import heuristic_events
from extractors.engine.interpret import Interpreter
from extractors.engine.mounts import MountTree
from extractors.engine.program import Program
from extractors.engine.recognize import Found, Recognizer
from extractors.engine.transforms import Transforms, provided_transforms
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
    generated: set[str]  # rels of generated client code
    transforms: list[TransformEvent]  # request transforms, registered or provided


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
    ev.defines = collect_defines(ev, interp)
    if ev.defines:
        ev._cache.clear()  # what was read while the tables were collected, read again
    generated = generated_files(program, library)
    recognizer = Recognizer(ev, interp, generated=generated)
    by_files = file_events(ev, library)  # file-system routes; files the framework calls
    recognizer.invokes += [e for e in by_files if isinstance(e, InvokeEvent)]
    found = [f for f in recognizer.run() if not _inside(f, generated)]
    found += [Found(e) for e in by_files if not isinstance(e, InvokeEvent)]
    found += [Found(e) for e in name_events(ev, interp, library)]  # `urlpatterns` …
    for row in [*recognizer.unresolved, *sorted(interp.unresolved)]:
        ctx.unresolved(*row)
    found = regroup(found)  # lexical groups, route handles
    claimed = {(f.event.site.rel, f.event.site.start, f.event.site.end) for f in found}
    found += [Found(e) for e in heuristic_events(ev, library, claimed)]  # what no model claims
    transforms: list[TransformEvent] = [
        f.event for f in found if isinstance(f.event, TransformEvent)
    ]
    transforms += provided_transforms(ev, library)
    if transforms:
        applied = Transforms(ev, transforms)
        found = [replace(f, event=applied.apply(f.event)) if isinstance(f.event, RequestEvent) else f
                 for f in found]  # fmt: skip
    tree = MountTree(library)
    for item in found:
        if isinstance(item.event, (RouteEvent, MountEvent, UseEvent, PrefixEvent)):
            tree.add(item.event)
    namings = [f.event for f in found if isinstance(f.event, NamingEvent)]
    emitter = Emitter(ctx, ev, interp.decorators, env_files=env_file_values(ctx), namings=namings)
    return Analysis(found, tree, emitter, generated, transforms)


HEADER = 2048  # bytes of a file read for a generator's marker


def generated_files(program: Program, library: Library) -> set[str]:
    """Files a code generator wrote: their header says so (`do not edit`), or names the
    generator a model describes (`THIS FILE WAS GENERATED VIA SWAGGER-TYPESCRIPT-API`). An
    SDK's functions are wrappers, the application's calls of them the call sites."""
    markers = [m.encode() for model in library.models for m in model.generated]
    out = set()
    for rel in program.rels():
        a = program.adapter(rel)
        head = a.sf.data[:HEADER].lower() if a is not None else b""
        if any(marker in head[:600] for marker in GENERATED) or any(m in head for m in markers):
            out.add(rel)
    return out


def _inside(item: Found, generated: set[str]) -> bool:
    """A request whose call site is generated client code: the client's own internals (its
    methods nobody calls, its fetch wrapper), not a call of the application."""
    if not isinstance(item.event, RequestEvent):
        return False
    site = item.chain[-1] if item.chain else item.event.site
    return site.rel in generated
