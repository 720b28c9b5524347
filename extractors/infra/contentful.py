"""Contentful: content types (from exported JSON) and the code that queries them.

Content types are `symbol` nodes, qualifier `contentful:<id>`, name `<id>`, attrs
`contentful_content_type: true`, `display_name`, `display_field`, `fields` [{id, type}],
`defined` (false when only code mentions it; then file:line is the first mention).
Sources: any JSON with `sys.type == "ContentType"`, or arrays `contentTypes` (space export)
/ `items` (CMA response) of them.

Usages are CALLS_FN edges from the enclosing symbol (or code_file) to the content type,
attrs `contentful_query` (getEntries, getEntry, entries, graphql, ...), found in JS/TS,
Vue script blocks and Python: `getEntries({content_type: 'blogPost'})`, typed
`getEntry<BlogPostSkeleton>(id)` through `EntrySkeletonType<Fields, 'blogPost'>`, Python
`client.entries({'content_type': 'blogPost'})`, and GraphQL `blogPostCollection` /
`blogPost(id: ...)` inside strings.
"""

from __future__ import annotations

import json
import re
from typing import Any

from extractors.base import ComponentContext
from extractors.shared import JsSymbols, PyModules, StackHints

NAME = "contentful"
# content types are symbols too, but not code: owner_at never attributes code to them
PROVIDES = (StackHints,)
REQUIRES = (JsSymbols, PyModules)
_CT_KEY = re.compile(r"""['"]?content_type['"]?\s*[:=]\s*['"]([A-Za-z][\w-]*)['"]""")
_METHOD = re.compile(r"\b(getEntries|getEntry|getEntriesWithLinks|entries|entry|withAllLocales)\b")
_SKELETON = re.compile(
    r"\b(\w+)\s*=\s*EntrySkeletonType\s*<[^;]*?,\s*['\"]([A-Za-z][\w-]*)['\"]\s*>"
)
_TYPED = re.compile(r"\.(getEntries|getEntry)\s*<\s*(\w+)")
_GQL = re.compile(r"\b([a-z][A-Za-z0-9]*)Collection\s*[({]")
_USES = ("contentful", "graphql.contentful", "ctfl", "cdn.contentful.com")
_USES_BYTES = tuple(u.encode() for u in _USES)


def _content_types(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        sys = data.get("sys")
        if isinstance(sys, dict) and sys.get("type") == "ContentType" and sys.get("id"):
            return [data]
        out = []
        for key in ("contentTypes", "items"):
            if isinstance(data.get(key), list):
                out.extend(ct for item in data[key] for ct in _content_types(item))
        return out
    return []


def _line(text: str, needle: str) -> int:
    pos = text.find(needle)
    return text.count("\n", 0, pos) + 1 if pos >= 0 else 1


def extract(ctx: ComponentContext) -> None:
    types: dict[str, str] = {}  # id → node id
    for rel, sf in sorted(ctx.files.items()):
        if not rel.endswith(".json") or b"ContentType" not in sf.data:
            continue
        try:
            found = _content_types(json.loads(sf.text))
        except (ValueError, RecursionError):
            continue
        for ct in found:
            cid = str(ct["sys"]["id"])
            if cid in types:
                continue
            fields = [
                {"id": f.get("id"), "type": f.get("type")}
                for f in ct.get("fields") or []
                if isinstance(f, dict)
            ]
            types[cid] = ctx.add_node(
                "symbol", f"contentful:{cid}", cid, rel, _line(sf.text, f'"{cid}"'), None,
                contentful_content_type=True, defined=True, display_name=ct.get("name"),
                display_field=ct.get("displayField"), fields=fields, symbol_kind="content_type",
            )  # fmt: skip
    if types:
        ctx.shared.stack.names.add("contentful")
    code = list(_code(ctx))
    if not types and not any(u in data for _, data, _ in code for u in _USES_BYTES):
        return  # `content_type` means a MIME type in a component that never uses Contentful
    for rel, data, enclosing in code:
        if _may_use(data):
            _usages(ctx, rel, data.decode("utf-8", "replace"), enclosing, types)


def _may_use(data: bytes) -> bool:
    """Cheap byte test: can any usage pattern match? Each regex needs one of these literals
    (ASCII, so a byte match is a text match), so most files skip the decode and the scans."""
    if b"content_type" in data or b"Collection" in data:
        return True
    return b"EntrySkeletonType" in data and b"getEntr" in data


def _code(ctx: ComponentContext):
    """(rel, source bytes, byte → enclosing node id) for every JS-family and Python module."""
    for rel, mod in sorted(ctx.shared.js.modules.items()):
        yield rel, mod.sf.data, mod.enclosing
    for rel, mod in sorted(ctx.shared.py.modules.items()):
        yield rel, mod.sf.data, mod.enclosing


def _usages(ctx: ComponentContext, rel: str, text: str, enclosing, types: dict[str, str]) -> None:
    found: list[tuple[int, str, str]] = []  # (char offset, content type, query)
    for m in _CT_KEY.finditer(text):
        before = text[max(0, m.start() - 300) : m.start()]
        methods = _METHOD.findall(before)
        found.append((m.start(), m.group(1), methods[-1] if methods else "query"))
    if "EntrySkeletonType" not in text:
        skeletons: dict[str, str] = {}
    else:
        skeletons = dict((name, cid) for name, cid in _SKELETON.findall(text))
    for m in _TYPED.finditer(text) if skeletons else ():
        if m.group(2) in skeletons and m.group(1) == "getEntry":
            found.append((m.start(), skeletons[m.group(2)], "getEntry"))
    if "query" in text or "gql" in text or "graphql" in text.lower():
        for m in _GQL.finditer(text):
            found.append((m.start(), m.group(1), "graphql"))
    seen: set[tuple[str, str]] = set()
    data = text.encode("utf-8")
    for offset, cid, query in sorted(found):
        byte = len(text[:offset].encode("utf-8")) if not text.isascii() else offset
        line = data.count(b"\n", 0, byte) + 1
        caller = enclosing(byte)
        target = types.get(cid)
        if target is None:
            target = types[cid] = ctx.add_node(
                "symbol", f"contentful:{cid}", cid, rel, line, None, contentful_content_type=True,
                defined=False, symbol_kind="content_type",
            )  # fmt: skip
        if (caller, target) in seen:
            continue
        seen.add((caller, target))
        ctx.add_edge(caller, target, "CALLS_FN", rel, line, contentful_query=query)
    if found:
        ctx.shared.stack.names.add("contentful")
