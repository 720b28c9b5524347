"""The kb-graph MCP server: nine tools over the published warehouse, stdio transport.

Each tool is a thin wrapper: check arguments, build an `Answer`, fit it into the token
budget (`State.answer`). Any failure is one line (`ToolError`, shown to the agent as
an error result); the server keeps serving. Never imports Dagster, assets or extractors.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from mcp_server import (
    arg_guard,
    tools_admin,
    tools_catalog,
    tools_entity,
    tools_impact,
    tools_trace,
)
from mcp_server.budget import Answer
from mcp_server.state import State, ToolFailure, prewarm

INSTRUCTIONS = """kb-graph answers questions about a portfolio of software projects.
Use the cheapest layer that answers: a single fact about one project (runtime, URL, GCP
project, deploy, secret location) -> read index/projects.yaml in the KB; decisions ->
index/decisions.md; relationships inside one project (call chains, impact, neighbours) ->
kb_trace / kb_impact / kb_neighbors / kb_entity; cross-project -> kb_find / kb_compare with
project="*"; which docs to read -> kb_context; anything else -> kb_sql. The graph is static:
a missing edge is not proof that there is no relation (see the unresolved calls listed)."""

READ_ONLY = ToolAnnotations(readOnlyHint=True, idempotentHint=True, openWorldHint=False)

DESCRIPTIONS = {
    "kb_trace": "Follow a call chain inside one project across its repos: call site -> HTTP call -> "
    "(env var resolved) -> route -> middleware -> handler -> service, each hop with project/component "
    "path:line and how its URL or path was built. direction=down (callees) or up (callers; none is a "
    "plain no with the calls that could hide one). to=<node> answers 'does X call Y': the verdict "
    "first (yes / no — per the static graph), then the evidence. start may be a UI handler name "
    "(addBook), a route with or without prefix holes, path:line. Not for single facts.",
    "kb_impact": "What changes or breaks if a target changes or is rotated: a secret, env var, route, file "
    "or folder, symbol, package, Terraform resource or a component URL. Lists readers and callers with "
    "path:line (across the project's repos), deploy environments, Terraform, docs and ADRs mentioning it.",
    "kb_neighbors": "One node's direct neighbours grouped by edge type (edge_types filters, direction "
    "out|in|both). Says 'no edge per the static graph' and lists unresolved/dynamic calls when empty; a "
    "route nobody calls says so with the call sites that could be it. to=<node> answers 'does this "
    "node call that one' as kb_trace to= does. Cheaper than kb_trace when you need one hop.",
    "kb_find": "Which projects/components use something, with where it is declared (manifest, Terraform "
    "or route path:line). kind: package, middleware, host, tf_resource_type, env_var, runtime, "
    "integration, stack, component, route (routes and middleware of every project from the "
    "catalog; a route query may be 'METHOD /path'). query: a name, glob, or '*'. "
    "project='*' (default) searches all projects from the catalog and knowledge layer only; "
    "runtime, host and integration also list settings (config/deploy lines such as a Terraform "
    "region default or a Hosting rewrite) whose value or meaning mentions the query.",
    "kb_compare": "The same thing side by side across projects/components, e.g. kind=package name=express "
    "(versions with manifest path:line), kind=runtime name=cloud-run, or kind=component name=<a "
    "component or a role such as api> (every component of that role: runtime, URL, GCP project per "
    "env). project='*' (default) compares across all projects.",
    "kb_entity": "Everything about one node. A component: its routes (handler, route-level "
    "middleware, the shared chain once), outbound calls by target component -> route -> handler, "
    "inbound calls, env vars and secrets, then settings (name = value at file:line), Terraform, "
    "runtime, packages, docs — every list whole, compacter under a tight budget. A file, route, "
    "call site, handler, env var or setting: its own view. A name resolves component > route > file "
    "> handler > symbol. to=<node> answers 'does this node call that one' as kb_trace to= does. "
    "For one project-level fact, index/projects.yaml is cheaper.",
    "kb_sql": "Read-only SQL (one SELECT/WITH statement, 200-row cap, 5 s cap, no file access) over one "
    "project's partition plus the global layer. Tables: nodes, edges, unresolved, docs, adrs, "
    "catalog_packages, catalog_middleware, catalog_hosts, catalog_tf_types, catalog_env_vars, problems, "
    "builds. Use when no other tool fits.",
    "kb_status": "Freshness of the warehouse per partition: built vs current version of each component "
    "(code_graph_stale), when it was built, counts, kb_index_stale, ADRs proposed > 30 days, docs "
    "verified > 90 days ago, validation warnings. Call first when answers look outdated.",
    "kb_context": "The docs that matter for a task: a ranked pack of Markdown sections from the KB and "
    "the repos' own docs, fitted to max_tokens, each with path, heading path and why it was picked. "
    "Use before editing code you do not know; for decisions alone read index/decisions.md.",
}

log = logging.getLogger("kb-graph.mcp")

# strict: `budget=true` is not 1, `"5"` is not 5; out-of-range budgets are clamped with a note
Budget = Annotated[int, Field(strict=True)] | None
Depth = Annotated[int, Field(strict=True, ge=1)]


class GuardedServer(MCPServer):
    """Arguments checked before a tool runs; every error one line within the budget."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        too_big = arg_guard.oversized(arguments or {})
        if too_big:
            raise ToolError(f"{name}: {too_big}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(arg_guard.condense(name, cause)) from None
            raise ToolError(arg_guard.clip(str(exc))) from None


def _run(state: State, budget: int | None, build: Callable[[Answer], object]) -> str:
    try:
        return state.answer(build, budget)
    except ToolFailure as exc:
        raise ToolError(arg_guard.clip(str(exc))) from None
    except Exception as exc:  # noqa: BLE001 — never a stack trace to the agent
        damage = state.damage()
        if damage:
            raise ToolError(arg_guard.clip(damage)) from None
        log.exception("tool failed")
        raise ToolError(
            f"internal error ({exc.__class__.__name__}): {' '.join(str(exc).split())[:200]}"
        ) from None


def create_server(kb_root: Path, data_dir: Path | None = None) -> MCPServer:
    state = State.open(kb_root, data_dir)
    server = GuardedServer(name="kb-graph", instructions=INSTRUCTIONS)

    def tool(name: str) -> Callable:
        return server.tool(name=name, description=DESCRIPTIONS[name], annotations=READ_ONLY)

    @tool("kb_trace")
    def kb_trace(
        start: str,
        project: str | None = None,
        component: str | None = None,
        direction: str = "down",
        to: str | None = None,
        max_depth: Depth = 6,
        budget: Budget = None,
    ) -> str:
        return _run(
            state,
            budget,
            lambda a: tools_trace.trace(
                state, a, start, project, component, direction, to, max_depth
            ),
        )

    @tool("kb_impact")
    def kb_impact(
        target: str,
        project: str | None = None,
        component: str | None = None,
        budget: Budget = None,
    ) -> str:
        return _run(
            state, budget, lambda a: tools_impact.impact(state, a, target, project, component)
        )

    @tool("kb_neighbors")
    def kb_neighbors(
        node: str,
        project: str | None = None,
        component: str | None = None,
        edge_types: list[str] | None = None,
        direction: str = "both",
        to: str | None = None,
        budget: Budget = None,
    ) -> str:
        return _run(
            state,
            budget,
            lambda a: tools_trace.neighbors(
                state, a, node, project, component, edge_types, direction, to
            ),
        )

    @tool("kb_find")
    def kb_find(kind: str, query: str = "*", project: str = "*", budget: Budget = None) -> str:
        return _run(state, budget, lambda a: tools_catalog.find(state, a, kind, query, project))

    @tool("kb_compare")
    def kb_compare(kind: str, name: str, project: str = "*", budget: Budget = None) -> str:
        return _run(state, budget, lambda a: tools_catalog.compare(state, a, kind, name, project))

    @tool("kb_entity")
    def kb_entity(
        name: str,
        project: str | None = None,
        component: str | None = None,
        to: str | None = None,
        budget: Budget = None,
    ) -> str:
        return _run(
            state, budget, lambda a: tools_entity.entity(state, a, name, project, component, to)
        )

    @tool("kb_sql")
    def kb_sql(sql: str, project: str | None = None, budget: Budget = None) -> str:
        return _run(state, budget, lambda a: tools_admin.sql(state, a, sql, project))

    @tool("kb_status")
    def kb_status(project: str | None = None, budget: Budget = None) -> str:
        return _run(state, budget, lambda a: tools_admin.status(state, a, project))

    @tool("kb_context")
    def kb_context(
        task: str, max_tokens: Annotated[int, Field(strict=True)] = 8000, project: str | None = None
    ) -> str:
        return _run(
            state, max_tokens, lambda a: tools_admin.context(state, a, task, max_tokens, project)
        )

    server.state = state  # type: ignore[attr-defined]  # for in-process callers (tests)
    threading.Thread(target=prewarm, args=(state,), daemon=True, name="kb-prewarm").start()
    return server
