"""Config constants (JS family): a config module's exported literals and where code uses them.

A config module is a file named `config`, `configuration`, `settings`, `secrets`,
`constants`, `env` or `environment` (any JS-family extension, also a stand-in such as
`config.ts.example` for a git-ignored `config.ts`, read by extractors/base.py). Each
exported top-level `const NAME = <literal>` (string, number, boolean, template without
substitutions) of it is configuration:
- a `setting` node `<file>:<line>:<NAME>`, name NAME, attrs `value` (the literal; left out
  for a secret-looking name, `secret_like` true instead), `about`, `source="constant"`,
  `symbol` (the constant's symbol node id); DECLARES from its code_file;
- READS_ENV (emitted by engine.env, the one emitter of READS_ENV) from the enclosing
  symbol (or code_file) of every use of the imported name in
  another module → the constant's symbol node, at the use's line, attrs `via` (the name as
  written) and `constant` true — the same "reads a configuration value" edge an env var
  read is, so impact reaches the code that signs or verifies with a secret constant.
"""

from __future__ import annotations

import posixpath
import re

from extractors.base import STAND_IN_SUFFIXES, ComponentContext
from extractors.infra.env import SECRET_NAME
from extractors.js.common import modules, owner_at, string_value, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.js.settings import Settings
from extractors.shared import EngineRun, EnvVars, JsSymbols
from extractors.source import SourceFile, captures

NAME = "config_constants"
PROVIDES = (EnvVars,)  # its reads, emitted by engine.env
REQUIRES = (JsSymbols, EngineRun)
_CONFIG_STEM = re.compile(
    r"^(config|configuration|settings|secrets?|constants|env|environment)$", re.I
)
_LITERALS = {"string", "number", "true", "false", "template_string"}
_IMPORTS = {"import_specifier", "import_clause", "namespace_import", "export_specifier"}
_IDENTIFIERS = "(identifier) @id"


def is_config_module(rel: str) -> bool:
    name = posixpath.basename(rel)
    for suffix in STAND_IN_SUFFIXES:
        name = name.removesuffix(suffix)
    return bool(_CONFIG_STEM.match(name.split(".", 1)[0]))


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    constants: dict[tuple[str, str], str] = {}  # (rel, local name) -> symbol id
    settings = Settings(ctx)
    for rel, mod in sorted(mods.items()):
        if is_config_module(rel):
            _constants(mod, constants, settings)
    settings.emit()
    analysis = ctx.shared.engine.result
    if not constants or analysis is None:
        return
    program = analysis.emitter.ev.program
    for rel, mod in sorted(mods.items()):
        local = {}
        for name in mod.imports:
            declared = program.declaration(rel, name)  # through imports and re-exports
            if declared is None or declared[0] == rel or declared[1].path:
                continue
            found = (declared[0], declared[1].name)
            if found in constants:
                local[name] = constants[found]
        if local:
            _uses(ctx, mod, local)


def _constants(mod: ModuleInfo, constants: dict, settings: Settings) -> None:
    sf = mod.sf
    for exported, local in sorted(mod.exports.items()):
        value = unwrap(mod.consts.get(local))
        symbol = mod.symbols.get(local)
        if value is None or symbol is None or value.type not in _LITERALS:
            continue
        if value.type == "template_string" and any(
            c.type == "template_substitution" for c in value.named_children
        ):
            continue
        constants[(mod.rel, local)] = symbol
        literal = string_value(sf, value) if value.type == "string" else text(sf, value)
        secret = bool(SECRET_NAME.search(exported))
        about = f"config constant exported by {mod.rel}"
        stand_in = next((s for s in STAND_IN_SUFFIXES if mod.rel.endswith(s)), None)
        if stand_in:
            about += f" (example standing in for the absent {mod.rel.removesuffix(stand_in)})"
        attrs = {"secret_like": True} if secret else {}
        settings.add(
            mod.rel, SourceFile.line(value), exported,
            "(not recorded: secret-like name)" if secret else (literal or "").strip("`"),
            about, "constant", symbol=symbol, **attrs,
        )  # fmt: skip


def _uses(ctx: ComponentContext, mod: ModuleInfo, local: dict[str, str]) -> None:
    sf = mod.sf
    if not any(name.encode() in sf.data for name in local):
        return
    seen = set()
    for ident in captures(sf.language or "", _IDENTIFIERS, sf.tree.root_node).get("id", []):
        name = text(sf, ident)
        parent = ident.parent
        if name not in local or (parent is not None and parent.type in _IMPORTS):
            continue
        owner, line = owner_at(ctx, mod.rel, ident), SourceFile.line(ident)
        if (owner, name, line) in seen:
            continue
        seen.add((owner, name, line))
        ctx.shared.env.constants.append(
            (owner, local[name], mod.rel, line, {"via": name, "constant": True})
        )
