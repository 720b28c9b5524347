"""Benchmark tasks for the doc context broker: (task, sections a good pack must contain).

A section is (source, path, heading): source "kb" for the KB, "project/component" for an
example repo, "pkgs/<name>" for a fetched package. A pack covers a section when one of
its entries (same source and path) includes the heading's line.
"""

KB = "kb"
FASTIFY, PINO, AXIOS = "pkgs/fastify", "pkgs/pino", "pkgs/axios"
EXPRESS, FASTAPI, VUE = "pkgs/express", "pkgs/fastapi", "pkgs/vue"
ROTATE = "projects/acme-shop/contact-api/runbook-rotate-zendesk-token.md"
DEPLOY = "projects/acme-shop/infra/runbook-deploy.md"
FLOW = "projects/acme-shop/contact-form-flow.md"
GLOBEX_API = "projects/globex-portal/api/architecture.md"
GLOBEX_WEB = "projects/globex-portal/web/architecture.md"
INITECH = "projects/initech-events/functions/architecture.md"
CONVENTIONS = "projects/initech-events/conventions.md"
HOOKS, ROUTES, SERVER = (
    "docs/Reference/Hooks.md",
    "docs/Reference/Routes.md",
    "docs/Reference/Server.md",
)
SKILL_REFS = "fastapi/.agents/skills/fastapi/references"

TASKS: list[tuple[str, list[tuple[str, str, str]]]] = [
    # --- the example portfolio (KB + repos) ---
    ("rotate the zendesk api token of the contact api", [(KB, ROTATE, "Steps")]),
    ("what do I need before rotating the zendesk token", [(KB, ROTATE, "Before you start")]),
    (
        "which middleware runs before the contact form handler",
        [
            (KB, FLOW, "Middleware chain"),
            (KB, "projects/acme-shop/contact-api/architecture.md", "Request pipeline"),
        ],
    ),
    (
        "why is the contact form a separate express service",
        [(KB, "projects/acme-shop/adr/0001-express-for-contact-api.md", "Decision Outcome")],
    ),
    (
        "release a new application version of acme shop to prod",
        [(KB, DEPLOY, "Releasing a new application version to prod")],
    ),
    ("roll back a bad acme shop deploy", [(KB, DEPLOY, "Rolling back")]),
    ("add a new secret to acme shop", [(KB, DEPLOY, "Adding a secret")]),
    (
        "fields of the blog post content model",
        [(KB, "projects/acme-shop/cms/content-model.md", "Fields")],
    ),
    (
        "preview draft blog posts from contentful",
        [(KB, "projects/acme-shop/cms/content-model.md", "Preview")],
    ),
    (
        "how does the storefront talk to the contact api",
        [(KB, "projects/acme-shop/web/architecture.md", "Talking to the Contact API")],
    ),
    (
        "newsletter signup on the storefront",
        [(KB, "projects/acme-shop/web/architecture.md", "Newsletter signup")],
    ),
    ("run the contact api locally", [("acme-shop/contact-api", "README.md", "Run locally")]),
    (
        "place an order and charge the payment in the globex portal",
        [(KB, GLOBEX_API, "Placing and charging")],
    ),
    ("configure secrets of the globex portal api", [(KB, GLOBEX_API, "Secrets")]),
    ("reports sdk in the partner portal frontend", [(KB, GLOBEX_WEB, "Reports SDK")]),
    (
        "why fastapi with pydantic-settings for the portal api",
        [
            (
                KB,
                "projects/globex-portal/adr/0001-fastapi-with-pydantic-settings.md",
                "Decision Outcome",
            )
        ],
    ),
    ("send the ticket email after an event registration", [(KB, INITECH, "Sending the ticket")]),
    (
        "route the public api through the firebase hosting rewrite",
        [
            (
                KB,
                "projects/initech-events/adr/0001-route-api-through-hosting-rewrite.md",
                "Decision Outcome",
            ),
            (KB, CONVENTIONS, "One origin for the public site"),
        ],
    ),
    (
        "callable functions for signed-in users",
        [(KB, CONVENTIONS, "Callables for signed-in actions")],
    ),
    (
        "why keep the knowledge base as docs-as-code",
        [(KB, "adr/0001-use-docs-as-code.md", "Decision Outcome")],
    ),
    # --- real package docs ---
    ("add a fastify preHandler hook that checks authentication", [(FASTIFY, HOOKS, "preHandler")]),
    ("close database connections in the fastify onClose hook", [(FASTIFY, HOOKS, "onClose")]),
    ("prefix all fastify routes registered by a plugin", [(FASTIFY, ROUTES, "Route Prefixing")]),
    ("version constraints on fastify routes", [(FASTIFY, ROUTES, "Version Constraints")]),
    ("raise the fastify bodyLimit for large payloads", [(FASTIFY, SERVER, "`bodyLimit`")]),
    ("fastify trustProxy behind a load balancer", [(FASTIFY, SERVER, "`trustProxy`")]),
    (
        "custom error handler with setErrorHandler in fastify",
        [(FASTIFY, SERVER, "setErrorHandler")],
    ),
    (
        "test fastify routes with inject",
        [(FASTIFY, "docs/Guides/Testing.md", "Benefits of using fastify.inject()")],
    ),
    ("redact passwords from pino logs", [(PINO, "docs/redaction.md", "Redaction")]),
    ("write a custom pino transport", [(PINO, "docs/transports.md", "Writing a Transport")]),
    ("pino child logger bindings cost", [(PINO, "docs/child-loggers.md", "Cost of child logging")]),
    ("axios interceptors to add an auth header", [(AXIOS, "README.md", "Interceptors")]),
    ("cancel an axios request with AbortController", [(AXIOS, "README.md", "Cancellation")]),
    ("handle timeouts in axios", [(AXIOS, "README.md", "Handling timeouts")]),
    (
        "upload a file with axios multipart form-data",
        [(AXIOS, "README.md", "Using `multipart/form-data` format")],
    ),
    (
        "fastapi dependencies with yield and scope",
        [(FASTAPI, f"{SKILL_REFS}/dependencies.md", "Dependencies with `yield` and `scope`")],
    ),
    (
        "stream server-sent events from fastapi",
        [(FASTAPI, f"{SKILL_REFS}/streaming.md", "Server-Sent Events (SSE)")],
    ),
    (
        "install express 4 and start a quick app",
        [(EXPRESS, "Readme.md", "Installation"), (EXPRESS, "Readme.md", "Quick Start")],
    ),
]
