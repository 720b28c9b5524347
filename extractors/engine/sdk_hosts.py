"""Hosts of the third-party SDKs a component imports (`models/sdk_hosts.yaml`): one `hosts`
catalog row per importing file, at the import line, `sdk` naming the package. The SDK's
method calls are no http_calls and no `unresolved` rows: a request to Stripe is no request
to a route of the project."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.js.common import modules
from extractors.lang.files import adapter_of

TABLE = Path(__file__).resolve().parents[1] / "models" / "sdk_hosts.yaml"


@cache
def _hosts() -> tuple[dict[str, str], dict[str, str]]:
    data = yaml.safe_load(TABLE.read_text(encoding="utf-8")) or {}
    return dict(data.get("npm") or {}), dict(data.get("pypi") or {})


def sdk_hosts(ctx: ComponentContext) -> None:
    js_sdks, py_sdks = _hosts()
    seen: set[tuple[str, str]] = set()

    def row(host: str, rel: str, line: int, sdk: str) -> None:
        if (host, rel) not in seen:
            seen.add((host, rel))
            ctx.facts.catalog.append(
                CatalogRow("hosts", ctx.project, ctx.component, host, rel, line, {"sdk": sdk})
            )

    for rel, mod in sorted(modules(ctx).items()):
        for binding in mod.imports.values():
            sdk = binding.spec if binding.spec in js_sdks else binding.package
            if sdk in js_sdks and binding.target is None:
                row(js_sdks[sdk], rel, binding.line, sdk)
    local = ctx.shared.py.resolver.by_name if ctx.shared.py.resolver is not None else {}
    for rel, mod in sorted(ctx.shared.py.modules.items()):
        for node in adapter_of(ctx, mod.sf).imports():
            if node.type == "import_from_statement":
                specs = [node.child_by_field_name("module_name")]
            else:
                specs = [c.child_by_field_name("name") or c for c in node.named_children]
            for spec in (s.text.decode() for s in specs if s is not None and s.text):
                sdk = next((s for s in py_sdks if spec == s or spec.startswith(s + ".")), None)
                if sdk is not None and spec not in local:
                    row(py_sdks[sdk], rel, node.start_point[0] + 1, sdk)
