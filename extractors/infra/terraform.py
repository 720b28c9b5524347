"""Terraform (HCL): tf_resource nodes for resources, data sources, modules, variables,
providers; the GCP project ids each one lands in; catalog rows `tf_types`.

Node qualifiers: `type.name` (resource), `data.type.name`, `module.name`, `var.name`,
`provider.name`; every node has attrs `block`, `type`, `name` (the block label) and the notable
attributes (`project`, `location`, `region`, `secret_id`, ..., the `name` attribute as
`resource_name`) after resolving `var.*`/`local.*`: a value that differs per env is
`<attr>_by_env`, one that cannot be resolved is `<attr>_expr` (source text); one set from a
variable with a default names it in `variables` ({attr: "var.x (default at file:line)"}).
`gcp_projects` lists the resolved GCP project ids (from `project`, `project_id`, else the
`google` provider's) and `gcp_projects_by_env` which env's tfvars gave each:
`environments/prod.tfvars` → env `prod`, `prod/terraform.tfvars` → `prod`, plain
`terraform.tfvars` → `default`, variable defaults → `default`.
Cloud Run style `env { name = "X" value_source { secret_key_ref { secret = ... } } }`
becomes attrs `env_vars` and `secret_env` ({env var: referenced secret resource}).
Values of variables that look secret (password, token, key, secret) are never kept.
Settings (variable defaults, probe paths, notable attributes, env declarations of a deploy and
of a secret payload): `infra.tf_settings`.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow, Node
from extractors.infra.tf_settings import TfSettings, block_settings, finish
from extractors.shared import EnvVars, StackHints
from extractors.source import SourceFile, parser_for

NAME = "terraform"
PROVIDES = (StackHints,)
REQUIRES = (EnvVars,)  # env_var nodes of `.env*` files first: tf_settings adds to them
NOTABLE = {"project", "project_id", "name", "location", "region", "zone", "secret_id",
           "bucket", "repository_id", "account_id", "service", "database_version", "tier",
           "runtime", "entry_point", "dataset_id", "role", "member", "domain", "source",
           "version", "display_name", "format"}  # fmt: skip
SECRETISH = re.compile(r"pass(word)?|secret|token|api_?key|private|credential", re.I)
_REF = re.compile(r"\b((?:data\.)?[a-z][a-z0-9_]*\.[a-zA-Z0-9_-]+)\.[a-zA-Z0-9_]+")
_VAR = re.compile(r"\bvar\.([A-Za-z0-9_-]+)")
_INTERP = re.compile(r"\$\{\s*(var|local)\.([A-Za-z0-9_-]+)\s*\}")


def _children(node: TsNode, kind: str) -> list[TsNode]:
    return [c for c in node.named_children if c.type == kind]


def _body(block: TsNode) -> TsNode | None:
    found = _children(block, "body")
    return found[0] if found else None


def _labels(sf: SourceFile, block: TsNode) -> list[str]:
    out = []
    for c in block.named_children:
        if c.type == "string_lit":
            out.append(
                "".join(sf.node_text(t) for t in c.named_children if t.type == "template_literal")
            )
        elif c.type == "identifier" and out is not None and c != block.named_children[0]:
            out.append(sf.node_text(c))
    return out


def _attributes(body: TsNode | None) -> dict[str, TsNode]:
    out: dict[str, TsNode] = {}
    for attr in _children(body, "attribute") if body is not None else []:
        key = attr.named_children[0]
        value = attr.named_children[-1]
        out[key.text.decode()] = value
    return out


def _literal(sf: SourceFile, expr: TsNode) -> str | int | float | bool | None:
    """A plain literal's value, or the template text (with `${...}` kept) for strings."""
    node = expr
    while (
        node.type in {"expression", "literal_value", "template_expr"}
        and node.named_child_count == 1
    ):
        node = node.named_children[0]
    if node.type in {"string_lit", "quoted_template"}:
        return "".join(sf.node_text(c) for c in node.named_children
                       if c.type in {"template_literal", "template_interpolation"})  # fmt: skip
    if node.type == "numeric_lit":
        raw = sf.node_text(node)
        return float(raw) if "." in raw else int(raw)
    if node.type == "bool_lit":
        return sf.node_text(node) == "true"
    return None


class Values:
    """Variable values per env (tfvars), variable defaults and locals of the component."""

    def __init__(self) -> None:
        self.defaults: dict[str, Any] = {}
        self.by_env: dict[str, dict[str, Any]] = {}
        self.locals: dict[str, Any] = {}
        self.default_at: dict[str, str] = {}  # variable → `file:line` of its default

    def resolve(self, sf: SourceFile, expr: TsNode | None) -> dict[str, str]:
        """env → value for an expression (`"*"` when it does not depend on the env)."""
        if expr is None:
            return {}
        raw = sf.node_text(expr).strip()
        literal = _literal(sf, expr)
        if isinstance(literal, str):
            template = literal
        elif re.fullmatch(r"(var|local)\.([A-Za-z0-9_-]+)", raw):
            template = "${" + raw + "}"
        else:
            return {}
        if not _INTERP.search(template):
            return {"*": template}
        envs = sorted(self.by_env) or ["default"]
        out: dict[str, str] = {}
        for env in envs:

            def sub(m: re.Match, env: str = env) -> str:
                kind, name = m.group(1), m.group(2)
                if kind == "local":
                    value = self.locals.get(name)
                else:
                    value = self.by_env.get(env, {}).get(name, self.defaults.get(name))
                if value is None:
                    raise KeyError(name)
                return str(value)

            try:
                out[env] = _INTERP.sub(sub, template)
            except KeyError:
                continue
        if len(set(out.values())) == 1 and len(out) == len(envs):
            return {"*": next(iter(out.values()))}
        return out


def _env_of(rel: str) -> str:
    path = PurePosixPath(rel)
    stem = path.name.removesuffix(".tfvars")
    if stem in {"terraform", "default"} or stem.endswith(".auto"):
        parent = path.parent.name
        return (
            parent if parent and parent not in {"environments", "envs", "vars", "."} else "default"
        )
    return stem


def extract(ctx: ComponentContext) -> None:
    tf_files = [f for f in ctx.by_language("hcl") if f.rel.endswith(".tf")]
    if not tf_files:
        return
    ctx.shared.stack.names.add("terraform")
    values = Values()
    hcl = parser_for("hcl")
    for rel, sf in sorted(ctx.files.items()):
        if rel.endswith(".tfvars"):
            tree = hcl.parse(sf.data)
            env = _env_of(rel)
            env_values = values.by_env.setdefault(env, {})
            for name, expr in _attributes(_body(tree.root_node)).items():
                lit = _literal(sf, expr)
                if lit is not None:
                    env_values[name] = lit
            ctx.add_node("code_file", rel, rel, rel, 1, SourceFile.end_line(tree.root_node),
                         language="hcl", tfvars_env=env, variables=sorted(env_values))  # fmt: skip
    blocks: list[tuple[SourceFile, TsNode]] = []
    for sf in sorted(tf_files, key=lambda f: f.rel):
        root = sf.tree.root_node
        if root.has_error:
            ctx.problem(
                "warning", sf.rel, None, "syntax-error", "HCL syntax error: facts may be missing"
            )
        ctx.add_node(
            "code_file", sf.rel, sf.rel, sf.rel, 1, SourceFile.end_line(root), language="hcl"
        )
        for block in _children(_body(root), "block") if _body(root) is not None else []:
            blocks.append((sf, block))
            kind = sf.node_text(block.named_children[0])
            attrs = _attributes(_body(block))
            labels = _labels(sf, block)
            if kind == "variable" and labels and "default" in attrs:
                lit = _literal(sf, attrs["default"])
                if lit is not None:
                    values.defaults[labels[0]] = lit
                    values.default_at[labels[0]] = f"{sf.rel}:{SourceFile.line(attrs['default'])}"
            elif kind == "locals":
                for name, expr in attrs.items():
                    lit = _literal(sf, expr)
                    if lit is not None:
                        values.locals[name] = lit
    provider_project: dict[str, str] = {}
    for sf, block in blocks:
        if sf.node_text(block.named_children[0]) == "provider" and _labels(sf, block)[:1] == [
            "google"
        ]:
            attrs = _attributes(_body(block))
            provider_project = values.resolve(sf, attrs.get("project"))
    state = TfSettings()
    for sf, block in blocks:
        _block(ctx, sf, block, values, provider_project, state)
    finish(ctx, state)


def _block(ctx: ComponentContext, sf: SourceFile, block: TsNode, values: Values,
           provider_project: dict[str, str], state: TfSettings) -> None:  # fmt: skip
    kind = sf.node_text(block.named_children[0])
    labels = _labels(sf, block)
    body = _body(block)
    attrs = _attributes(body)
    line, end = SourceFile.line(block), SourceFile.end_line(block)
    info: dict[str, Any] = {"block": kind}
    if kind == "resource" and len(labels) >= 2:
        qual, info["type"], info["name"] = f"{labels[0]}.{labels[1]}", labels[0], labels[1]
    elif kind == "data" and len(labels) >= 2:
        qual, info["type"], info["name"] = f"data.{labels[0]}.{labels[1]}", labels[0], labels[1]
    elif kind == "module" and labels:
        qual, info["type"], info["name"] = f"module.{labels[0]}", "module", labels[0]
    elif kind == "variable" and labels:
        qual, info["type"], info["name"] = f"var.{labels[0]}", "variable", labels[0]
        secret = bool(SECRETISH.search(labels[0]))
        if not secret and labels[0] in values.defaults:
            info["default"] = values.defaults[labels[0]]
        info["envs"] = sorted(e for e, v in values.by_env.items() if labels[0] in v)
        if not secret:
            info["values_by_env"] = {
                e: v[labels[0]] for e, v in sorted(values.by_env.items()) if labels[0] in v
            }
    elif kind == "provider" and labels:
        qual, info["type"], info["name"] = f"provider.{labels[0]}", "provider", labels[0]
    else:
        return
    for attr in sorted(NOTABLE & set(attrs)):
        key = "resource_name" if attr == "name" else attr  # `name` is the block label
        resolved = values.resolve(sf, attrs[attr])
        if len(resolved) == 1 and "*" in resolved:
            info[key] = resolved["*"]
        elif resolved:
            info[key + "_by_env"] = resolved
        else:
            info[key + "_expr"] = sf.node_text(attrs[attr])[:120]
        used = [v for v in _VAR.findall(sf.node_text(attrs[attr])) if v in values.default_at]
        if used and not SECRETISH.search(used[0]):  # where the value comes from, to change it
            info.setdefault("variables", {})[key] = (
                f"var.{used[0]} (default at {values.default_at[used[0]]})"
            )
    project_expr = attrs.get("project") or attrs.get("project_id")
    if kind in {"resource", "data", "module"}:
        by_env = (
            values.resolve(sf, project_expr) if project_expr is not None else dict(provider_project)
        )
        if by_env:
            info["gcp_projects"] = sorted(set(by_env.values()))
            info["gcp_projects_by_env"] = {e: p for e, p in sorted(by_env.items()) if e != "*"}
            info["gcp_project_from"] = "attribute" if project_expr is not None else "provider"
        refs = sorted({m.group(1) for m in _REF.finditer(sf.node_text(body) if body else "")
                       if not m.group(1).startswith(("var.", "local.", "each.", "count.", "self."))})  # fmt: skip
        if refs:
            info["references"] = refs
        env_vars, secret_env = _container_env(sf, body)
        if env_vars:
            info["env_vars"] = env_vars
        if secret_env:
            info["secret_env"] = secret_env
    node_id = ctx.node_id("tf_resource", qual)  # attrs carry `name`: build the Node directly
    ctx.facts.nodes.append(
        Node(node_id, "tf_resource", qual, ctx.project, ctx.component, sf.rel, line, end, info)
    )
    ctx.add_edge(ctx.node_id("code_file", sf.rel), node_id, "DEFINES", sf.rel, line)
    defaults = {k: v for k, v in values.defaults.items() if not SECRETISH.search(k)}
    block_settings(ctx, state, sf, block, qual, node_id, defaults)
    if kind in {"resource", "data"}:
        ctx.facts.catalog.append(
            CatalogRow(
                "tf_types", ctx.project, ctx.component, info["type"], sf.rel, line, {"block": kind}
            )
        )
    elif kind == "module" and isinstance(info.get("source"), str):
        ctx.facts.catalog.append(
            CatalogRow(
                "tf_types",
                ctx.project,
                ctx.component,
                f"module:{info['source']}",
                sf.rel,
                line,
                {"block": "module", "version": info.get("version")},
            )
        )


def _container_env(sf: SourceFile, body: TsNode | None) -> tuple[list[str], dict[str, str]]:
    """Env var names set by nested `env { name = ... }` blocks, and which secret feeds each."""
    names: list[str] = []
    secrets: dict[str, str] = {}
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        for block in _children(node, "block"):
            inner = _body(block)
            if sf.node_text(block.named_children[0]) == "env" and inner is not None:
                attrs = _attributes(inner)
                name = _literal(sf, attrs["name"]) if "name" in attrs else None
                if isinstance(name, str):
                    names.append(name)
                    ref = _REF.search(sf.node_text(inner))
                    if ref and "secret" in sf.node_text(inner):
                        secrets[name] = ref.group(1)
            elif inner is not None:
                stack.append(inner)
    return sorted(set(names)), secrets
