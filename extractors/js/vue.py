"""Single-file components (Vue `.vue`, Svelte `.svelte`): the SFC is a code_file, its
component a symbol, and its `<script>` / `<script setup>` / `<script context="module">`
blocks become a virtual SourceFile so every JS-family extractor (symbols, imports, calls,
routes, env reads, HTTP calls, generated-client operations) applies to them unchanged.
The markup is Vue's `<template>` block, or for Svelte everything outside script and style.

The virtual file is registered as `ctx.files["<rel>#script"]` with `rel` = the SFC's path,
`virtual_of` = the SFC's key, and `language` from `lang=` (ts → typescript, tsx → tsx,
else javascript). Every byte outside the script blocks is blanked to a space (newlines
kept), so tree-sitter's line and column numbers are the SFC's own.

The component symbol (qualifier `<rel>#<ComponentName>`, name from the file name) spans the
whole SFC; module-level script code is attributed to it, it CALLS_FN the script-setup
functions the template references, and it is the module's default export.
Provides `ctx.shared.vue` (VueComponents: rel → component symbol id, template words).
"""

from __future__ import annotations

import posixpath
import re

from extractors.base import ComponentContext
from extractors.shared import CodeSymbols, VueComponents
from extractors.source import SourceFile

NAME = "vue"
PROVIDES = (VueComponents, CodeSymbols)
REQUIRES = ()
_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_TEMPLATE = re.compile(rb"<template\b[^>]*>(.*)</template\s*>", re.S | re.I)
_STYLE = re.compile(rb"<style\b[^>]*>.*?</style\s*>", re.S | re.I)
SFC_LANGUAGES = ("vue", "svelte")
_LANG = re.compile(rb"""\blang\s*=\s*["']?([\w-]+)""")
_NOT_NEWLINE = re.compile(rb"[^\n]")
_WORD = re.compile(rb"[A-Za-z_$][\w$]*")


def _language(attrs: bytes) -> str:
    found = _LANG.search(attrs)
    lang = found.group(1).decode().lower() if found else "js"
    return {"ts": "typescript", "typescript": "typescript", "tsx": "tsx"}.get(lang, "javascript")


def script_source(data: bytes) -> tuple[bytes, str] | None:
    """The SFC with everything but its script blocks blanked, and the blocks' language."""
    blocks = list(_SCRIPT.finditer(data))
    if not blocks:
        return None
    out = bytearray(_NOT_NEWLINE.sub(b" ", data))
    for block in blocks:
        start, end = block.span(2)
        out[start:end] = data[start:end]
    languages = {_language(b.group(1)) for b in blocks}
    language = next((lang for lang in ("tsx", "typescript") if lang in languages), "javascript")
    return bytes(out), language


def component_name(rel: str) -> str:
    stem = posixpath.basename(rel).rsplit(".", 1)[0]
    if stem.lower() == "index":
        stem = posixpath.basename(posixpath.dirname(rel)) or stem
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[-_.\s]+", stem) if p)


def extract(ctx: ComponentContext) -> None:
    components = ctx.shared.vue.components
    for sf in sorted(ctx.by_language(*SFC_LANGUAGES), key=lambda f: f.rel):
        if sf.virtual_of is not None:
            continue
        lines = sf.data.count(b"\n") + 1
        file_id = ctx.add_node("code_file", sf.rel, sf.rel, sf.rel, 1, lines, language=sf.language)
        name = component_name(sf.rel)
        comp_id = ctx.add_node(
            "symbol", f"{sf.rel}#{name}", name, sf.rel, 1, lines,
            exported=True, symbol_kind="component", framework=sf.language,
        )  # fmt: skip
        ctx.add_edge(file_id, comp_id, "DEFINES", sf.rel, 1)
        components[sf.rel] = comp_id
        carved = script_source(sf.data)
        if carved is None:
            continue
        data, language = carved
        ctx.files[f"{sf.rel}#script"] = SourceFile(
            sf.rel, sf.path, data, language, virtual_of=sf.rel
        )
    ctx.shared.vue.template_words = {
        rel: _template_words(ctx.files[rel].data, ctx.files[rel].language) for rel in components
    }


def link_template(ctx: ComponentContext) -> None:
    """Component → CALLS_FN → script functions (and Options-API methods) named in its
    template (after typescript)."""
    from extractors.js.common import modules

    words = ctx.shared.vue.template_words
    nodes = {n.id: n for n in ctx.facts.nodes if n.kind == "symbol"}
    for rel, comp_id in sorted(ctx.shared.vue.components.items()):
        mod = modules(ctx).get(rel)
        if mod is None:
            continue
        own = comp_id.rsplit("#", 1)[-1] + "."  # Options-API members: `Books.addBook`
        for name, node_id in sorted(mod.symbols.items()):
            bare = name.removeprefix(own)
            if "." not in bare and bare in words.get(rel, set()) and node_id != comp_id:
                ctx.add_edge(comp_id, node_id, "CALLS_FN", rel, 1, via="template")
                if node_id in nodes:  # a handler the template binds ranks as one by name
                    nodes[node_id].attrs["ui_handler"] = True


def _template_words(data: bytes, language: str | None) -> set[str]:
    if language == "svelte":  # the markup is what is left outside script and style
        markup = _STYLE.sub(b" ", _SCRIPT.sub(b" ", data))
        return {w.decode() for w in _WORD.findall(markup)}
    found = _TEMPLATE.search(data)
    if found is None:
        return set()
    return {w.decode() for w in _WORD.findall(found.group(1))}
