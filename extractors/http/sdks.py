"""Third-party SDKs whose requests go to a known host: one `hosts` catalog row per importing
file (the import line, `sdk` attr naming the package), so the external-hosts catalog shows
who talks to Stripe, SendGrid, Firestore... Their method calls are never http_calls (an SDK
call is no request to a route of the project) and never unresolved noise."""

from __future__ import annotations

from extractors.facts import CatalogRow
from extractors.js.common import modules
from extractors.python.index import py_matches

# import specifier (JS, as written; or its package) / Python top module → host
JS_SDKS = {
    "stripe": "api.stripe.com",
    "@stripe/stripe-js": "api.stripe.com",
    "@sendgrid/mail": "api.sendgrid.com",
    "twilio": "api.twilio.com",
    "openai": "api.openai.com",
    "@anthropic-ai/sdk": "api.anthropic.com",
    "@octokit/rest": "api.github.com",
    "octokit": "api.github.com",
    "resend": "api.resend.com",
    "postmark": "api.postmarkapp.com",
    "contentful": "cdn.contentful.com",
    "contentful-management": "api.contentful.com",
    "algoliasearch": "algolia.net",
    "firebase/firestore": "firestore.googleapis.com",
    "firebase/auth": "identitytoolkit.googleapis.com",
    "firebase/storage": "firebasestorage.googleapis.com",
    "firebase/functions": "cloudfunctions.net",
    "firebase-admin": "firestore.googleapis.com",
    "@google/generative-ai": "generativelanguage.googleapis.com",
    "@aws-sdk/client-s3": "s3.amazonaws.com",
}
PY_SDKS = {
    "stripe": "api.stripe.com",
    "sendgrid": "api.sendgrid.com",
    "twilio": "api.twilio.com",
    "openai": "api.openai.com",
    "anthropic": "api.anthropic.com",
    "github": "api.github.com",
    "boto3": "amazonaws.com",
    "google.cloud.storage": "storage.googleapis.com",
    "google.cloud.firestore": "firestore.googleapis.com",
}


def sdk_hosts(ctx) -> None:
    seen: set[tuple[str, str]] = set()

    def row(host: str, rel: str, line: int, sdk: str) -> None:
        if (host, rel) not in seen:
            seen.add((host, rel))
            ctx.facts.catalog.append(
                CatalogRow("hosts", ctx.project, ctx.component, host, rel, line, {"sdk": sdk})
            )

    for rel, mod in sorted(modules(ctx).items()):
        for binding in mod.imports.values():
            sdk = binding.spec if binding.spec in JS_SDKS else binding.package
            if sdk in JS_SDKS and binding.target is None:
                row(JS_SDKS[sdk], rel, binding.line, sdk)
    local = ctx.shared.py.resolver.by_name if ctx.shared.py.resolver is not None else {}
    for rel, mod in sorted(ctx.shared.py.modules.items()):
        for m in py_matches(ctx, mod.sf, "imports"):
            node = m["i"][0]
            if node.type == "import_from_statement":
                specs = [node.child_by_field_name("module_name")]
            else:
                specs = [c.child_by_field_name("name") or c for c in node.named_children]
            for spec in (s.text.decode() for s in specs if s is not None and s.text):
                sdk = next((s for s in PY_SDKS if spec == s or spec.startswith(s + ".")), None)
                if sdk is not None and spec not in local:
                    row(PY_SDKS[sdk], rel, node.start_point[0] + 1, sdk)
