"""Terraform statements that tell how a component runs or is reached, as `setting` nodes at
their own line, and the env vars a deploy declares (`infra.terraform` calls these per block).

- a variable's `default` (never for a secret-looking name): setting named by the variable;
- notable resource attributes (`database_version`, a literal `secret_id`, `runtime`, ...);
- probes: `startup_probe { http_get { path = "/ready" } }` → setting `path`, value
  `GET /ready`, attr `probe`;
- container env entries (`env { name = "X" value_source { secret_key_ref { secret = ... } } }`):
  env_var X declared at its `name` line; a value from a secret is a setting named X at the
  `secret` line whose `refers_to` is the secret resource, with a RESOLVES_TO edge
  env_var → secret resource;
- env declarations inside a secret payload (`secret_data = <<EOF` with `KEY="..."` lines):
  env_var KEY declared at its own line (the value is never kept), RESOLVES_TO the secret
  the payload is a version of; the secret's `secret_id` setting lists them in `carries`.
Every setting: DECLARES from its code_file and from its tf_resource; the tf_resource lists
what it declares in attr `settings` (["file:line name = value"]).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.source import SourceFile

SETTING_ATTRS = {
    "database_version": "database engine and version",
    "secret_id": "Secret Manager secret id",
    "runtime": "runtime",
    "tier": "machine tier",
    "image": "container image",
}
SECRETISH = re.compile(r"pass(word)?|secret|token|api_?key|private|credential|_key$", re.I)
_DOTENV = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")
_REF = re.compile(r"\b((?:data\.)?[a-z][a-z0-9_]*\.[a-zA-Z0-9_-]+)\.[a-zA-Z0-9_]+")


@dataclass
class TfSettings:
    """What one component's blocks declared, linked once every block is seen (`finish`)."""

    payloads: list[tuple[str, str, int, str]] = field(
        default_factory=list
    )  # owner, NAME, rel, line
    secret_ids: dict[str, tuple[str, dict]] = field(
        default_factory=dict
    )  # qual → setting id, attrs
    env_nodes: dict[str, str] = field(default_factory=dict)  # NAME → env_var id
    secret_refs: dict[str, str] = field(default_factory=dict)  # secret_version qual → secret qual


def _children(node: TsNode | None, kind: str) -> list[TsNode]:
    return [c for c in node.named_children if c.type == kind] if node is not None else []


def _body(block: TsNode) -> TsNode | None:
    found = _children(block, "body")
    return found[0] if found else None


def _attrs(body: TsNode | None) -> dict[str, TsNode]:
    return {a.named_children[0].text.decode(): a for a in _children(body, "attribute")}


def _string(sf: SourceFile, attr: TsNode) -> str | None:
    """The literal string of `key = "value"` (None for an expression or a template)."""
    node = attr.named_children[-1]
    while (
        node.type in {"expression", "literal_value", "template_expr"}
        and node.named_child_count == 1
    ):
        node = node.named_children[0]
    if node.type != "string_lit" or any(
        c.type == "template_interpolation" for c in node.named_children
    ):
        return None
    return "".join(sf.node_text(c) for c in node.named_children if c.type == "template_literal")


def _setting(ctx: ComponentContext, sf: SourceFile, owner: str, name: str, line: int,
             **attrs: Any) -> str:  # fmt: skip
    setting = ctx.add_node("setting", f"{sf.rel}:{line}:{name}", name, sf.rel, line,
                           source="terraform", **attrs)  # fmt: skip
    ctx.add_edge(ctx.node_id("code_file", sf.rel), setting, "DECLARES", sf.rel, line)
    ctx.add_edge(owner, setting, "DECLARES", sf.rel, line)
    return setting


def block_settings(ctx: ComponentContext, state: TfSettings, sf: SourceFile, block: TsNode,
                   qual: str, owner: str, defaults: dict[str, Any]) -> None:  # fmt: skip
    """Settings and env declarations of one block (`qual` is the tf_resource qualifier)."""
    body = _body(block)
    attrs = _attrs(body)
    if qual.startswith("var."):
        name = qual[4:]
        if "default" in attrs and name in defaults and not SECRETISH.search(name):
            about = _string(sf, attrs["description"]) if "description" in attrs else None
            _setting(ctx, sf, owner, name, SourceFile.line(attrs["default"]),
                     value=str(defaults[name]), about=about or "Terraform variable default",
                     refers_to=qual)  # fmt: skip
        return
    for key, about in SETTING_ATTRS.items():
        value = _string(sf, attrs[key]) if key in attrs else None
        if value:
            line = SourceFile.line(attrs[key])
            setting = _setting(ctx, sf, owner, key, line, value=value, about=about, refers_to=qual)
            if key == "secret_id":
                state.secret_ids[qual] = (setting, {"at": f"{sf.rel}:{line}", "secret_id": value})
    if "secret" in attrs:  # a secret version: which secret it belongs to
        ref = _REF.search(sf.node_text(attrs["secret"]))
        if ref:
            state.secret_refs[qual] = ref.group(1)
    for attr in attrs.values():
        _payload(ctx, state, sf, attr, owner)
    _nested(ctx, state, sf, body, owner)


def _payload(ctx: ComponentContext, state: TfSettings, sf: SourceFile, attr: TsNode,
             owner: str) -> None:  # fmt: skip
    """`KEY="..."` lines of a heredoc that reads as a dotenv file: env declarations."""
    heredocs = [n for n in _walk(attr) if n.type == "heredoc_template"]
    for doc in heredocs:
        lines = sf.node_text(doc).split("\n")[1:-1]
        start = SourceFile.line(doc) + 1
        found = [(start + i, _DOTENV.match(raw)) for i, raw in enumerate(lines) if raw.strip()]
        if not found or any(m is None for _, m in found):
            continue
        for line, m in found:
            state.payloads.append((owner, m.group(1), sf.rel, line))


def _walk(node: TsNode) -> list[TsNode]:
    out, stack = [], [node]
    while stack:
        cur = stack.pop()
        out.append(cur)
        stack.extend(cur.named_children)
    return out


def _nested(ctx: ComponentContext, state: TfSettings, sf: SourceFile, body: TsNode | None,
            owner: str) -> None:  # fmt: skip
    for block in _children(body, "block"):
        kind = sf.node_text(block.named_children[0])
        inner = _body(block)
        if kind.endswith("_probe"):
            for get in (b for b in _children(inner, "block")
                        if sf.node_text(b.named_children[0]) in {"http_get", "httpGet"}):  # fmt: skip
                path_attr = _attrs(_body(get)).get("path")
                path = _string(sf, path_attr) if path_attr is not None else None
                if path:
                    _setting(ctx, sf, owner, "path", SourceFile.line(path_attr),
                             value=f"GET {path}", probe=kind, refers_to=f"GET {path}",
                             about=f"{kind.replace('_', ' ')} (HTTP GET {path})")  # fmt: skip
        elif kind == "env" and inner is not None:
            _env(ctx, state, sf, inner, owner)
        else:
            _nested(ctx, state, sf, inner, owner)


def _env(ctx: ComponentContext, state: TfSettings, sf: SourceFile, inner: TsNode,
         owner: str) -> None:  # fmt: skip
    attrs = _attrs(inner)
    name = _string(sf, attrs["name"]) if "name" in attrs else None
    if not name:
        return
    env = env_var(ctx, state, name, sf.rel, SourceFile.line(attrs["name"]))
    ctx.add_edge(owner, env, "DECLARES", sf.rel, SourceFile.line(attrs["name"]))
    for node in _walk(inner):
        if node.type != "attribute" or sf.node_text(node.named_children[0]) != "secret":
            continue
        ref = _REF.search(sf.node_text(node))
        if ref is None:
            continue
        line = SourceFile.line(node)
        version = next(
            (_string(sf, a) for k, a in _attrs(node.parent).items() if k == "version"), None
        )
        _setting(ctx, sf, owner, name, line, refers_to=ref.group(1), env_var=name,
                 value=f"secret {ref.group(1)}" + (f" ({version})" if version else ""),
                 about=f"{name} value from a Secret Manager secret")  # fmt: skip
        ctx.add_edge(env, ctx.node_id("tf_resource", ref.group(1)), "RESOLVES_TO", sf.rel, line,
                     via="secret_key_ref", version=version)  # fmt: skip


def env_var(ctx: ComponentContext, state: TfSettings, name: str, rel: str, line: int) -> str:
    """The component's env_var node NAME (made at its first declaration, else the one `infra.env`
    made gets `rel` in `declared_in`), DECLARES from the file."""
    node_id = ctx.node_id("env_var", name)
    if name not in state.env_nodes:
        found = ctx.find_node(node_id)
        if found is None:
            ctx.add_node("env_var", name, name, rel, line, declared_in=[rel], public=False,
                         secret_like=bool(SECRETISH.search(name)))  # fmt: skip
            ctx.facts.catalog.append(CatalogRow("env_vars", ctx.project, ctx.component, name, rel,
                                                line, {"declared": True, "read": False}))  # fmt: skip
            ctx.shared.env.ids[name] = node_id
        else:
            found.attrs["declared_in"] = sorted({*(found.attrs.get("declared_in") or []), rel})
    state.env_nodes[name] = node_id
    ctx.add_edge(ctx.node_id("code_file", rel), node_id, "DECLARES", rel, line)
    return node_id


def finish(ctx: ComponentContext, state: TfSettings) -> None:
    """Payload env vars: declared, resolving to their secret; the secret lists what it carries."""
    carried: dict[str, list[str]] = {}
    for owner, name, rel, line in state.payloads:
        env = env_var(ctx, state, name, rel, line)
        ctx.add_edge(owner, env, "DECLARES", rel, line, via="secret payload")
        version = owner.split(":tf_resource:", 1)[-1]
        secret = state.secret_refs.get(version)
        if secret is None:
            continue
        attrs = dict(state.secret_ids.get(secret, ("", {}))[1])
        ctx.add_edge(env, ctx.node_id("tf_resource", secret), "RESOLVES_TO", rel, line,
                     via="secret payload", version_resource=version, **attrs)  # fmt: skip
        carried.setdefault(secret, []).append(name)
    by_id = {n.id: n for n in ctx.facts.nodes if n.kind == "setting"}
    for node in by_id.values():  # `secret google_secret_manager_secret.x` → its secret id
        ref = node.attrs.get("refers_to")
        if node.attrs.get("env_var") and ref in state.secret_ids:
            secret_id = state.secret_ids[ref][1]["secret_id"]
            node.attrs["value"] = node.attrs["value"].replace(
                f"secret {ref}", f"Secret Manager secret {secret_id}"
            )
            node.attrs["secret_id"] = secret_id
    for secret, names in carried.items():
        setting = state.secret_ids.get(secret, ("", {}))[0]
        if setting in by_id:
            by_id[setting].attrs["carries"] = sorted(set(names))
            by_id[setting].attrs["about"] = (
                "Secret Manager secret id (carries " + ", ".join(sorted(set(names))) + ")"
            )
    _listings(ctx)


def _listings(ctx: ComponentContext) -> None:
    """Each tf_resource lists what it declares as `settings`: ["file:line name = value"]."""
    nodes = {n.id: n for n in ctx.facts.nodes if n.kind in {"tf_resource", "setting", "env_var"}}
    for edge in ctx.facts.edges:
        owner, target = nodes.get(edge.src), nodes.get(edge.dst)
        if (
            edge.type != "DECLARES"
            or owner is None
            or owner.kind != "tf_resource"
            or target is None
        ):
            continue
        if target.kind == "setting":
            what = f"{target.name} = {target.attrs.get('value')}"
        else:
            what = f"env {target.name}" + (
                " (in the secret payload)" if edge.attrs.get("via") else ""
            )
        owner.attrs.setdefault("settings", []).append(f"{edge.file}:{edge.line} {what}")
