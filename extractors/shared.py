"""What extractors share within one component's extraction: one typed index per concern.

`ctx.shared` is a `Shared`; each field is one index, filled by the extractor that declares
it in `PROVIDES` and read by those that declare it in `REQUIRES` (the registry runs an
extractor after every provider of what it requires). An index may have several providers
(`CodeSymbols`: every extractor that adds code symbols). The per-file adapters
(`adapters`, lang/files.py) are a cache, built on first use by whoever asks: nobody provides
them.

Everything here lives for one component and is dropped when its extraction ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractors.js.model import ModuleInfo
    from extractors.lang.base import FileAdapter
    from extractors.python.model import PyModule, Resolver


@dataclass
class VueComponents:
    """Provided by `js.vue`: one component symbol per single-file component."""

    components: dict[str, str] = field(default_factory=dict)  # SFC rel -> symbol id
    template_words: dict[str, set[str]] = field(default_factory=dict)  # rel -> words


@dataclass
class JsSymbols:
    """Provided by `js.typescript`: every JS-family module's table."""

    modules: dict[str, ModuleInfo] = field(default_factory=dict)  # rel -> module table
    # packages imported by a Vue SFC's <script> (its code_file is the SFC's own)
    script_packages: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class PyModules:
    """Provided by `python.symbols`: every Python module, and name resolution across them."""

    modules: dict[str, PyModule] = field(default_factory=dict)  # rel -> module table
    resolver: Resolver | None = None  # `resolve(rel, dotted)`, `symbol(rel, dotted)`


@dataclass
class CodeSymbols:
    """The code's `symbol` and `code_file` nodes are all in `ctx.facts`.

    Provided by every extractor that adds code symbols; required by those that attribute a
    file position to its enclosing symbol (`js.common.owner_at`). Holds the line index that
    `owner_at` builds on first use: (node count when built, rel -> spans, rels with a
    code_file).
    """

    lines: tuple[int, dict[str, list[tuple[int, int, str]]], set[str]] | None = None


@dataclass
class ExpressApps:
    """Provided by `engine.routes`: `"<rel>#<name>"` of each root app -> its route node ids."""

    apps: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class EnvVars:
    """Provided by `infra.env` (declared names; the Prisma schema's reads) and `engine.env`
    (the emitter of every READS_ENV): env var NAME -> its env_var node id."""

    ids: dict[str, str] = field(default_factory=dict)
    reads: list[tuple[str, str, str, int, dict]] = field(default_factory=list)  # to emit
    # reads of a config module's exported constant (`infra.constants`): (owner, the
    # constant's symbol id, file, line, attrs), emitted with the env reads
    constants: list[tuple[str, str, str, int, dict]] = field(default_factory=list)


@dataclass
class StackHints:
    """Provided by whoever recognises a framework or tool (`fastapi`, `terraform`, ...)."""

    names: set[str] = field(default_factory=set)


@dataclass
class EngineRun:
    """Provided by `engine.run`: what the extraction engine found, for the extractors that
    emit it (`engine.routes`, `engine.requests`)."""

    result: object | None = None  # engine.run.Analysis


@dataclass
class Shared:
    vue: VueComponents = field(default_factory=VueComponents)
    js: JsSymbols = field(default_factory=JsSymbols)
    py: PyModules = field(default_factory=PyModules)
    symbols: CodeSymbols = field(default_factory=CodeSymbols)
    express: ExpressApps = field(default_factory=ExpressApps)
    env: EnvVars = field(default_factory=EnvVars)
    stack: StackHints = field(default_factory=StackHints)
    engine: EngineRun = field(default_factory=EngineRun)
    # caches, filled per file on first use (no provider)
    adapters: dict[str, FileAdapter] = field(default_factory=dict)  # rel -> its adapter
