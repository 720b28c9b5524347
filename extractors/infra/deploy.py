"""Deploy and runtime files → `setting` nodes and env declarations, each at its `file:line`.

What is read (the readers are in `deploy_runtime`, `deploy_compose`, `deploy_hosting`,
`deploy_manifests`):
- runtime versions: `package.json` `engines.*` / `packageManager` / `volta.*`, `.nvmrc`,
  `.node-version`, `.python-version`, `runtime.txt`, `.tool-versions`, `pyproject.toml`
  `requires-python` (and Poetry's `python`); `Dockerfile*` `FROM` / `EXPOSE` / `CMD` /
  `ENTRYPOINT` (+ `ENV` declarations); `Procfile` processes; App Engine `app.yaml`
  `runtime` / `entrypoint` / `service` (+ `env_variables`);
- `docker-compose*.yml` / `compose*.yaml`: each service's `image` and `ports`, and its
  `environment` entries (map or list form) as env declarations;
- `firebase.json` hosting rewrites (`source` → Cloud Run service / function / destination)
  and regions; `apphosting*.yaml` `env` (`variable` with `value` or `secret`) and
  `runConfig`; `vercel.json` / `netlify.toml` build-command assignments, `env` /
  `[build.environment]` blocks, rewrites and proxying redirects.
- Kubernetes workloads and Knative / Cloud Run service YAML: container `image` and
  `containerPort`, `env` entries as env declarations, `secretKeyRef` as a setting; Cloud
  Build files: `substitutions` and pushed `images` (`deploy_manifests`).
Files under test folders (`vocab.TEST_PATH`) are left out: fixtures are not how it runs.

setting node: qualifier `<file>:<line>:<name>`, name = the key as written (`engines.node`,
`services.mongodb.image`, `FROM`, `hosting.rewrites`), attrs `value`, `about`, `source` (the
kind of file), sometimes `refers_to` (the env var, service or function it points at). The
file (a code_file, made here when no other extractor made one) DECLARES it at that line.
A Hosting rewrite also has `refers_kind` (cloud_run_service | function), `region`, `path`.

Env declarations are recorded as `infra.env` records `.env*` lines: the env_var node (made
at the declaring line when no other file declares or reads the name, else merged:
`declared_in` gains the file), a DECLARES edge code_file → env_var at the line with attr
`via` (docker-compose, Dockerfile, apphosting, vercel, netlify, app.yaml, kubernetes,
knative; compose adds
`service`), and the
`env_vars` catalog row marked declared. A value is kept (attr `values`) only when
`infra.env.keep_value` allows it (URLs and hosts, never for a secret-looking name).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from extractors.base import ComponentContext
from extractors.facts import CatalogRow, Node
from extractors.infra import deploy_compose, deploy_hosting, deploy_manifests, deploy_runtime
from extractors.infra.env import PUBLIC_PREFIXES, SECRET_NAME, keep_value
from extractors.shared import CodeSymbols, EnvVars, StackHints
from extractors.source import SourceFile
from vocab import is_test_path

NAME = "deploy"
PROVIDES = ()
# after every extractor that makes code_file / env_var nodes (packages makes package.json's)
REQUIRES = (CodeSymbols, EnvVars, StackHints)
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
READERS = (deploy_runtime.read, deploy_compose.read, deploy_hosting.read, deploy_manifests.read)


class Emitter:
    """Adds settings and env declarations to one component's facts, merging with the
    code_file and env_var nodes and `env_vars` catalog rows other extractors made."""

    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.nodes: dict[str, Node] = {}
        for node in ctx.facts.nodes:
            if node.kind in {"code_file", "env_var"}:
                self.nodes.setdefault(node.id, node)
        self.rows = {r.name: r for r in ctx.facts.catalog if r.table == "env_vars"}
        self.seen: set[str] = set()

    def code_file(self, sf: SourceFile, language: str) -> str:
        node_id = self.ctx.node_id("code_file", sf.rel)
        if node_id not in self.nodes:
            end = sf.data.count(b"\n") + 1
            node = Node(node_id, "code_file", sf.rel, self.ctx.project, self.ctx.component,
                        sf.rel, 1, end, {"language": language})  # fmt: skip
            self.ctx.facts.nodes.append(node)
            self.nodes[node_id] = node
        return node_id

    def setting(
        self,
        sf: SourceFile,
        line: int | None,
        name: str,
        value: Any,
        about: str,
        source: str,
        language: str,
        **attrs: Any,
    ) -> None:
        if line is None or value in (None, "", [], {}):
            return
        qualifier = f"{sf.rel}:{line}:{name}"
        if qualifier in self.seen:
            return
        self.seen.add(qualifier)
        file_id = self.code_file(sf, language)
        node_id = self.ctx.add_node(
            "setting", qualifier, name, sf.rel, line,
            value=str(value), about=about, source=source,
            **{k: v for k, v in attrs.items() if v not in (None, "", [], {})},
        )  # fmt: skip
        self.ctx.add_edge(file_id, node_id, "DECLARES", sf.rel, line)

    def env(
        self,
        sf: SourceFile,
        line: int | None,
        name: str,
        value: Any,
        via: str,
        language: str,
        **attrs: Any,
    ) -> None:
        """One declaration of env var `name` at `sf.rel:line` (value kept only if harmless)."""
        if line is None or not ENV_NAME.match(name):
            return
        if f"{sf.rel}:{line}:env:{name}" in self.seen:
            return
        self.seen.add(f"{sf.rel}:{line}:env:{name}")
        ctx, rel = self.ctx, sf.rel
        file_id = self.code_file(sf, language)
        node_id = ctx.node_id("env_var", name)
        kept = {rel: str(value)} if isinstance(value, str) and keep_value(name, value) else {}
        node = self.nodes.get(node_id)
        if node is None:
            node = Node(node_id, "env_var", name, ctx.project, ctx.component, rel, line, None,
                        {"declared_in": [], "public": name.startswith(PUBLIC_PREFIXES),
                         "secret_like": bool(SECRET_NAME.search(name))})  # fmt: skip
            ctx.facts.nodes.append(node)
            self.nodes[node_id] = node
        declared = list(node.attrs.get("declared_in") or [])
        node.attrs["declared_in"] = sorted({*declared, rel})
        if kept:
            node.attrs["values"] = dict(
                sorted({**(node.attrs.get("values") or {}), **kept}.items())
            )
        ctx.add_edge(file_id, node_id, "DECLARES", rel, line, via=via, **attrs)
        row = self.rows.get(name)
        if row is None:
            row = CatalogRow("env_vars", ctx.project, ctx.component, name, rel, line,
                             {"declared": True, "read": False})  # fmt: skip
            ctx.facts.catalog.append(row)
            self.rows[name] = row
        row.attrs["declared"] = True


def extract(ctx: ComponentContext) -> None:
    emit = Emitter(ctx)
    for rel, sf in sorted(ctx.files.items()):
        if sf.virtual_of is not None or is_test_path(rel):
            continue  # a test fixture's Dockerfile or compose file is not how the component runs
        base = posixpath.basename(rel)
        for read in READERS:
            if read(emit, sf, base):
                break
