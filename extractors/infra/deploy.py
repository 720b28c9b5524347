"""Deploy and runtime files → `setting` nodes and env declarations, each at its `file:line`.

What is read (the readers are in `deploy_runtime`, `deploy_compose`, `deploy_hosting`,
`deploy_manifests`):
- runtime versions: `package.json` `engines.*` / `packageManager` / `volta.*`, `.nvmrc`,
  `.node-version`, `.python-version`, `runtime.txt`, `.tool-versions`, `pyproject.toml`
  `requires-python` (Poetry's `python`, Pipfile's `python_version`); `Dockerfile*` `FROM`
  (`ARG` defaults filled in) / `EXPOSE` / `CMD` / `ENTRYPOINT`, `ENV` as env declarations;
  `Procfile` processes; App Engine `app.yaml` `runtime` / `entrypoint` / `service` (and
  `env_variables` as env declarations);
- `docker-compose*.yml` / `compose*.yaml`: each service's `image` and `ports`, and its
  `environment` entries (map or list form) as env declarations;
- `firebase.json` hosting rewrites (`source` → Cloud Run service / function / destination),
  the `public` folder and regions (the rewrites the bridge follows are the firebase-hosting
  gateway model's, `infra.gateways`); `apphosting*.yaml` `env` (`variable` with `value` or `secret`) and
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
knative; compose adds `service`), and the `env_vars` catalog row marked declared. A value
is kept (attr `values`) only when `infra.env.keep_value` allows it (URLs and hosts, never
for a secret-looking name); settings never hold an env value.
"""

from __future__ import annotations

import posixpath

from extractors.base import ComponentContext
from extractors.infra import deploy_compose, deploy_hosting, deploy_manifests, deploy_runtime
from extractors.infra.emit import Emitter
from extractors.shared import CodeSymbols, EnvVars, StackHints
from vocab import is_test_path

NAME = "deploy"
PROVIDES = ()
# after every extractor that makes code_file / env_var nodes (packages makes package.json's)
REQUIRES = (CodeSymbols, EnvVars, StackHints)
READERS = (deploy_runtime.read, deploy_compose.read, deploy_hosting.read, deploy_manifests.read)


def extract(ctx: ComponentContext) -> None:
    emit = Emitter(ctx)
    for rel, sf in sorted(ctx.files.items()):
        if sf.virtual_of is not None or is_test_path(rel):
            continue  # a test fixture's Dockerfile or compose file is not how the component runs
        base = posixpath.basename(rel)
        for read in READERS:
            if read(emit, sf, base):
                break
