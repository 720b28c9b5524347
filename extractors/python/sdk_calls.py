"""Firestore from Python (`google-cloud-firestore`, `firebase_admin.firestore`): the chained
document API as `sdk_call` nodes, the same facts `extractors/js/sdk_calls.py` gives JS code.

`db.collection("users").document(uid).get()` (`.set/.update/.delete/.add/.stream/
.on_snapshot`, `.where/.order_by/.limit` between) → an `sdk_call` at the call's line,
attrs `sdk="firestore"`, `package`, `op`, `access`, `resource` (`users/{uid}`), `about`;
the enclosing symbol CALLS_FN it (attr `via="firestore sdk"`). Only in files that import
one of those packages.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.lang.files import adapter_of
from extractors.python.model import PyModule
from extractors.python.symbols import string_value, text
from extractors.shared import CodeSymbols, PyModules
from extractors.source import SourceFile

NAME = "python_sdk_calls"
PROVIDES = ()
REQUIRES = (PyModules, CodeSymbols)
ABOUT = "SDK call to a managed backend, not an HTTP call to a route of this project"
PACKAGES = ("google.cloud.firestore", "firebase_admin", "google.cloud")
OPS = {
    "get": "read", "stream": "read", "set": "write", "update": "write", "add": "write",
    "create": "write", "delete": "delete", "on_snapshot": "listen",
}  # fmt: skip
_PATH = {"collection", "document", "collection_group"}
_QUERY = {"where", "order_by", "limit", "offset", "start_after", "select"}


def extract(ctx: ComponentContext) -> None:
    taken: set[str] = set()
    for _, mod in sorted(ctx.shared.py.modules.items()):
        sf = mod.sf
        if b"firestore" not in sf.data or not _imports_sdk(ctx, mod):
            continue
        for call in adapter_of(ctx, sf).calls():
            fn = call.child_by_field_name("function")
            if fn is None or fn.type != "attribute":
                continue  # a method call: `….document(id).get()`
            verb, obj = (
                text(sf, fn.child_by_field_name("attribute")),
                fn.child_by_field_name("object"),
            )
            if verb not in OPS or obj is None or obj.type != "call":
                continue
            path = _chain(sf, obj)
            if path:
                _emit(ctx, mod, call, verb, path, taken)


def _imports_sdk(ctx: ComponentContext, mod: PyModule) -> bool:
    for node in adapter_of(ctx, mod.sf).imports():
        words = text(mod.sf, node)
        if "firestore" in words and any(p.split(".")[0] in words for p in PACKAGES):
            return True
    return False


def _chain(sf: SourceFile, call: TsNode) -> str | None:
    """`x.collection("a").document(b)` → `a/{b}`; None when the chain has no collection."""
    parts: list[str] = []
    node: TsNode | None = call
    seen = False
    while node is not None and node.type == "call":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "attribute":
            break
        name = text(sf, fn.child_by_field_name("attribute"))
        if name in _PATH:
            seen = seen or name.startswith("collection")
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            literal = string_value(sf, first) if first is not None else None
            label = text(sf, first) if first is not None else "new id"
            parts.append(literal if literal is not None else "{" + label + "}")
        elif name not in _QUERY:
            break  # the root: `firestore.client()`, `firestore.Client()`
        node = fn.child_by_field_name("object")
    return "/".join(reversed(parts)) if seen else None


def _emit(ctx, mod: PyModule, call: TsNode, op: str, path: str, taken: set[str]) -> None:
    line = SourceFile.line(call)
    qualifier = f"{mod.rel}:{line}:{op}"
    if qualifier in taken:
        qualifier += f"@{call.start_point[1] + 1}"
    taken.add(qualifier)
    node = ctx.add_node(
        "sdk_call", qualifier, f"Firestore {op} {path}", mod.rel, line,
        SourceFile.end_line(call), sdk="firestore", package="google-cloud-firestore", op=op,
        access=OPS[op], resource=path, about=ABOUT,
    )  # fmt: skip
    owner = mod.enclosing(call.start_byte)
    ctx.add_edge(owner, node, "CALLS_FN", mod.rel, line, via="firestore sdk")
