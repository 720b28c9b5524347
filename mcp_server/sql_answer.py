"""How a kb_sql result reads: every row that fits the budget, node ids with their names,
and a plain "no rows" with the nearest names when the query filtered by name.

Rows are not grouped (a result is not an edge list): they are kept in order and the
budget drops them from the end, with one line saying how many were left out. A cell that
is a node id of the partition (an edge's `src`/`dst`) also shows that node's name, so a
route reads `GET /api/user` whatever its id's qualifier is.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from mcp_server.budget import Answer
from mcp_server.render import short
from mcp_server.state import State

ROW_PRIO = 10
SUMMARY_TOKENS = 320  # kept free for the left-out summary and the notes
_NAME_FILTER = re.compile(
    r"\bname\s+(?:not\s+)?(?:i?like|=)\s+'((?:[^']|'')*)'", re.I
)  # name LIKE '%/auth/login%'
_KIND_FILTER = re.compile(r"\bkind\s*=\s*'(\w+)'", re.I)
_ID_SHAPE = re.compile(r"^[\w.-]+(/[\w.-]+)?:[a-z_]+:.+")


def _names_of(state: State, scope: str | None, ids: set[str]) -> dict[str, str]:
    """node id → name for the id-shaped cells of the result (one lookup)."""
    if not ids:
        return {}
    con = state.connection(scope)
    found: dict[str, str] = {}
    wanted = sorted(ids)
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        rows = con.execute(
            f"SELECT id, name FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall()
        found.update({str(k): str(v) for k, v in rows if v is not None})
    return found


def _cell(value: Any, names: dict[str, str], strip: str = "") -> str:
    if value is None:
        return "∅"
    if isinstance(value, dict):  # a JSON cell (attrs): key=value, compact
        return short(" ".join(f"{k}={_flat(v)}" for k, v in value.items()), 120)
    text = str(value)
    named = names.get(text)
    shown = text.removeprefix(strip) if strip else text
    if named and named not in text:
        return f"{short(named, 90)} [{short(shown, 90)}]"
    if isinstance(value, str) and text.startswith("{") and text.endswith("}"):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return _cell(parsed, names)
    return short(shown, 120)


def _flat(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def _prefixes(columns: list[str], rows: list[tuple[Any, ...]]) -> list[str]:
    """Per column, the `project/component:kind:` prefix every id cell shares ('' if none)."""
    out = []
    for i in range(len(columns)):
        values = [r[i] for r in rows if r[i] is not None]
        if not values or not all(isinstance(v, str) and _ID_SHAPE.match(v) for v in values):
            out.append("")
            continue
        common = os.path.commonprefix(values)
        head = common.split(":")[:2]  # at most `project/component:kind:`
        cut = ":".join(head) + ":" if common.count(":") >= 2 else ""
        cut = cut if len(values) > 1 and all(v.startswith(cut) for v in values) else ""
        out.append(cut if len(cut) >= 8 else "")
    return out


def render_rows(
    state: State,
    ans: Answer,
    scope: str | None,
    query: str,
    columns: list[str],
    rows: list[tuple[Any, ...]],
) -> None:
    ids = {str(v) for row in rows for v in row if isinstance(v, str) and _ID_SHAPE.match(v)}
    names = _names_of(state, scope, ids)
    if rows:
        _inside_words(ans, query, columns, rows)
    strip = _prefixes(columns, rows)
    for col, cut in zip(columns, strip, strict=True):
        if cut:
            ans.add(f"({col}: ids shown without their shared prefix '{cut}')")
    ans.add(" | ".join(columns))
    lines = [" | ".join(_cell(v, names, strip[i]) for i, v in enumerate(row)) for row in rows]
    room = (ans.budget - _reserve(ans)) * 3 - sum(len(ln.text.encode()) + 1 for ln in ans.lines)
    shown = 0
    for line in lines:
        room -= len(line.encode()) + 1
        if room < 0:
            break
        shown += 1
    for line in lines[:shown]:
        ans.add(line)
    if shown < len(lines):
        _left_out(ans, columns, [lines[i].split(" | ")[0] for i in range(shown, len(lines))])
    if not rows:
        ans.add("no rows — per the static graph (the query matched nothing in this partition)")
        nearest(state, ans, scope, query)


def _reserve(ans: Answer) -> int:
    return min(SUMMARY_TOKENS, ans.budget // 4)


def _left_out(ans: Answer, columns: list[str], firsts: list[str]) -> None:
    """How many rows did not fit, and the distinct first-column values among them (in the
    answer's closing `collapsed:` line)."""
    distinct = list(dict.fromkeys(short(v, 80) for v in firsts))
    text = (
        f"{len(firsts)} more rows left out (ask with a larger budget= or a narrower query); "
        f"their {columns[0]} values ({len(distinct)}): "
    )
    room = _reserve(ans) * 3 - 60 - len(text.encode())
    shown = []
    for value in distinct:
        room -= len(value.encode()) + 2
        if room < 0:
            break
        shown.append(value)
    more = f" +{len(distinct) - len(shown)} more" if len(shown) < len(distinct) else ""
    ans.cut.append(text + ", ".join(shown) + more)


def _literals(query: str) -> list[str]:
    return [m.replace("''", "'") for m in _NAME_FILTER.findall(query)]


def _core(literal: str) -> str:
    return literal.strip("%").replace("%", " ").replace("_", " ").strip()


def nearest(state: State, ans: Answer, scope: str | None, query: str) -> None:
    """Names close to a `name LIKE/=` filter that matched nothing: nodes whose name holds
    the filter's words (most words first), same kind when the query names one."""
    if scope is None:
        return
    kinds = _KIND_FILTER.findall(query)
    scored: dict[tuple, int] = {}
    con = state.connection(scope)
    for literal in _literals(query):
        words = [w for w in re.findall(r"[A-Za-z0-9]+", _core(literal)) if len(w) >= 3]
        for word in words:
            sql = "SELECT kind, name, component, file, line FROM nodes WHERE project = ? AND name ILIKE ?"
            params: list[Any] = [scope, f"%{word}%"]
            if kinds:
                sql += f" AND kind IN ({','.join('?' * len(kinds))})"
                params += kinds
            for row in con.execute(sql + " LIMIT 200", params).fetchall():
                scored[row] = scored.get(row, 0) + 1
    if not scored:
        return
    best = sorted(scored, key=lambda r: (-scored[r], len(str(r[1])), str(r[1])))[:8]
    ans.add("nearest names (sharing the filter's words):")
    for kind, name, comp, file, line in best:
        loc = f" ({scope}/{comp} {file}:{line})" if comp and file else ""
        ans.add(f"{kind} {short(name, 90)}{loc}", prio=5, indent="  ")


def _inside_words(ans: Answer, query: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    """`name LIKE '%/user%'` that only matched longer words (`/users`): say plainly that no
    row has it as a whole word — the classic LIKE pitfall behind a wrong "yes"."""
    if "name" not in columns:
        return
    at = columns.index("name")
    names = [str(r[at]) for r in rows if r[at] is not None]
    for literal in _literals(query):
        core = _core(literal)
        if not core or not literal.startswith("%") or not literal.endswith("%"):
            continue
        whole = re.compile(rf"{re.escape(core)}(?![A-Za-z0-9])", re.I)
        if names and not any(whole.search(n) for n in names):
            ans.add(
                f"no match of '{short(core, 60)}' as a whole word: all {len(names)} rows have it "
                f"inside a longer word (e.g. {short(names[0], 60)})"
            )
