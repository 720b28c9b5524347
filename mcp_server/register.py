"""`kb register <client>`: what an agent reads about the kb-graph MCP server.

The KB's `AGENTS.md` with the layer-selection rules (inside a marked block, so the rest
of the file is the user's), and the client's one-line pointer file to AGENTS.md. The
client's MCP config itself is written by `cli/clients.py`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

BEGIN, END = "<!-- kb-graph:begin -->", "<!-- kb-graph:end -->"
POINTER = "Read AGENTS.md first: it says which kb-graph layer answers which question."

AGENTS_RULES = f"""{BEGIN}
# Working with this knowledge base (kb-graph)

Answer from the cheapest layer that can; read more only when it cannot. Pick the tool by
the question's class:

| class | question | use |
| --- | --- | --- |
| single fact | runtime, URL, GCP project, deploy, secret location of one project | `index/projects.yaml` — one file read |
| single fact | a config/deploy value: Node version, default region, compose image, mount prefix, API base URL | `kb_entity(name=<setting name or word>, project=, component=)`, or the `settings` section of `kb_entity(name=<component>, project=)` (`name = value (file:line)`) |
| single fact | decisions, "why did we do this" | `index/decisions.md` (ADR summaries), then the ADR itself |
| does X call Y | "does web call POST /api/users?", "does this form reach the Zendesk service?" | `kb_trace(start=X, to=Y, project=)` (or `kb_neighbors(node=X, to=Y, …)` / `kb_entity(name=X, to=Y, …)`, the same engine): the verdict first — `yes — per the static graph` with each call site → route → handler, or `no — per the static graph` with both ends as resolved, whether the route exists (a placeholder-prefix route such as `/{{API_PREFIX}}/v1/users` counts), its inbound calls, what X calls instead and the unbridged/unresolved calls that could hide an edge; a route only another project serves is a no by construction |
| trace | "where does this button / form handler / call site post to, down to the handler and services" | `kb_trace(start=<handler name, path:line or call site>, project=)` — direction `down`; each HTTP hop says how its URL was built (the env var with its value per env file, the wrapper lines), each route how its path was mounted |
| trace | "who calls this route / handler?", "which frontend code reaches it?" | `kb_trace(start=<"METHOD /full/path" or handler>, project=, direction="up")` — no caller is a plain no with the call sites that could be it |
| impact | "what breaks if this secret / env var / route / middleware / file / setting / cookie / Terraform resource / URL changes?" | `kb_impact(target=, project=)` — any name works (a constant, a setting's value, `google_cloud_run_v2_service.server`, `https://api.example.com`); readers with `path:line`, routes behind a middleware that reads it, the call sites that reach those routes, settings that name it, deploy envs, docs; tests listed apart |
| inside a component | "what does component C do?" — its routes (handler, route-level middleware; the chain every route shares once), outbound calls by target component → route → handler, inbound calls, env vars read and secrets, then settings, Terraform, runtime | `kb_entity(name=<component>, project=)` — under a tight budget every list stays whole, in less detail |
| inside a component | "what is in this file?" (routes with handler and what it calls, outbound calls, env reads, functions, settings, importers) | `kb_entity(name=<path>, project=, component=)` |
| inside a component | one route: its middleware chain in order (as written), how its path is mounted, handler, what the handler calls, who calls it | `kb_entity(name="METHOD /full/path", project=, component=)` |
| inside a component | one hop of edges of one node (e.g. only `USES_MIDDLEWARE`, only incoming `CALLS`) | `kb_neighbors(node=, edge_types=[...], direction=, project=)` |
| negative | "is there a route / call / read / setting X?" | `kb_entity`, `kb_impact` or `kb_trace(to=)` on it: a missing one is answered "no — per the static graph" with the nearest names (other method, one segment off, a placeholder prefix that could be it) and the unresolved calls that could hide an edge |
| cross-project | "which projects use Nuxt / serve POST /api/users / use helmet or CORS / deploy to us-central1", compare Express versions, compare the APIs | `kb_find` / `kb_compare` with `project="*"` (catalog, knowledge and settings only — the only tools that accept `*`); `kb_find kind=route` and `kind=middleware` list them across projects (middleware by package or as written: `cors` finds `app.enableCors`); `kb_compare kind=component name=<component or role>` compares every component of that role |
| docs | which docs to read before a task | `kb_context(task, max_tokens, project=)` |
| anything else | lists and counts the tools do not give | `kb_sql` (read-only SQL, one project; rows fill the budget, the rest is counted on the `collapsed:` line; an empty result says "no rows" with the nearest names) |

Rules:
- Always pass `project=`; components of different projects share names (`api`, `web`).
  `project="*"` is refused by every tool except `kb_find` and `kb_compare`.
- Names resolve the way you mean them: a component before a route before a file before a
  handler (route handlers and UI event handlers: `addBook` finds the Vue method
  `Books.addBook`, `handleAddTodo` the React class field `TodoApp.handleAddTodo`, a
  handler nested in a function component that component) before
  any other symbol; a name several nodes share returns the candidates — pass the id.
- Routes are named `METHOD /full/path` (every mount prefix included, the framework's own
  parameter syntax: `:id`, `{{id}}`, `<id>`, `[id]`); an unresolved prefix stays a hole
  (`/{{API_PREFIX}}/v1/users`), and the concrete path (`POST /api/v1/users`) finds it.
- Code facts read `project/component path:line`, or `path:12-18` when the node spans lines;
  a middleware is shown at the line where that route gets it (with `defined …` when it
  lives elsewhere). A `↳` line under a hop says how its value was built; an edge of
  medium or low confidence says so in words, with how it was matched and its evidence
  (a run-time condition or dead code is said too).
- The graph is static. "No edge per the static graph" is **not** proof of no relation:
  read the unresolved/dynamic calls listed with it, and check the code before concluding.
- An answer ending in `collapsed:` was cut to its budget: ask again with a larger
  `budget=` or a narrower question (one route, one file, `edge_types=`).
- An answer with `code_graph_stale:` was built from older code: say so, or run `kb refresh`.
- Secrets are never stored; the KB holds their name, location and hint only.
{END}
"""

POINTER_FILES = {
    "claude-code": "CLAUDE.md",
    "gemini": "GEMINI.md",
    "copilot": ".github/copilot-instructions.md",
    "vscode": ".github/copilot-instructions.md",
    # Cursor and Codex read AGENTS.md themselves: no pointer file in the KB.
}
# How a client's instruction file imports another file, so the rules are loaded for sure
# rather than left to the agent to open: Claude Code's memory files take `@path`
# (relative to the importing file, or absolute), Gemini CLI's import processor
# `@./path` or `@/absolute/path`. Copilot's instructions have no import: a sentence only.
IMPORT_SYNTAX = {"claude-code": "@{path}", "gemini": "@{path}"}


@dataclass
class Planned:
    path: Path
    content: str


def _with_block(existing: str | None) -> str:
    if not existing:
        return AGENTS_RULES
    if BEGIN in existing and END in existing:
        head, rest = existing.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + AGENTS_RULES.rstrip("\n") + tail
    return existing.rstrip("\n") + "\n\n" + AGENTS_RULES


def pointer_text(client: str, agents: str) -> str:
    """The pointer to AGENTS.md at `agents` (as the pointer file should name it): the
    sentence, and the client's own import line when it has one."""
    sentence = POINTER.replace("AGENTS.md", agents, 1)
    syntax = IMPORT_SYNTAX.get(client)
    if syntax is None:
        return sentence
    path = agents if agents.startswith(("/", "./", "../")) or client != "gemini" else f"./{agents}"
    return f"{sentence}\n{syntax.format(path=path)}"


def _ours(line: str) -> bool:
    """A line an earlier `kb register` wrote (its sentence or its import of AGENTS.md)."""
    text = line.strip()
    return (text.startswith("Read ") and POINTER.split("AGENTS.md", 1)[1] in text) or (
        text.startswith("@") and text.endswith("AGENTS.md")
    )


def _with_pointer(existing: str | None, pointer: str) -> str:
    if not existing:
        return pointer + "\n"
    if pointer in existing:
        return existing
    kept = "\n".join(line for line in existing.splitlines() if not _ours(line)).rstrip("\n")
    return (kept + "\n\n" if kept else "") + pointer + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def instruction_files(
    client: str, kb: Path, target: Path | None = None, portable: bool = False
) -> list[Planned]:
    """The KB's AGENTS.md (rules in a marked block) and the client's pointer to it: in the
    KB, or with `target` in that code repo, naming the KB's AGENTS.md by its full path
    (`portable`: by its path relative to the pointer file, for a repo the team shares)."""
    agents = kb / "AGENTS.md"
    planned = [Planned(agents, _with_block(_read(agents)))]
    if target is None:
        name = POINTER_FILES.get(client)
        if name:
            pointer = kb / name
            where = os.path.relpath(agents, pointer.parent)
            planned.append(
                Planned(pointer, _with_pointer(_read(pointer), pointer_text(client, where)))
            )
        return planned
    name = POINTER_FILES.get(client, "AGENTS.md")
    pointer = target / name
    where = (
        os.path.relpath(agents.resolve(), pointer.parent.resolve())
        if portable
        else str(agents.resolve())
    )
    text = pointer_text(client, where)
    planned.append(Planned(pointer, _with_pointer(_read(pointer), text)))
    return planned


def write(planned: list[Planned]) -> None:
    for item in planned:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = item.path.with_name(item.path.name + f".tmp-{os.getpid()}")
        tmp.write_text(item.content, encoding="utf-8")
        os.replace(tmp, item.path)
