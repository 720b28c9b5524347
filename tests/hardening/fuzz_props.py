"""Strategies and properties shared by the quick fuzz tests and `bench/fuzz.py`; the set
itself is `PROPERTIES` (both run every one of them).

Each `check_*` runs one generated case against the real code and returns an outcome
name ("ok", "refused", …); it raises `Broken` when the property fails — an unexpected
exception (a crash), a multi-line or unlocated error, an answer past its bound, or a
credential byte that survived redaction (a leak).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import yaml
from corpus import honest_prose, true_credentials
from hypothesis import strategies as st

from kb.frontmatter import FrontmatterError, parse_markdown
from kb.loader import KbNotFound, load_kb
from kb.schema import KINDS
from kb.secret_scan import redact_text
from kb.validate import validate_kb
from warehouse.query_guard import QueryRejected, run_readonly, sandbox
from warehouse.reader import parquet_view


class Broken(AssertionError):
    """The property failed; `kind` is crash, slow, unlocated or leak."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


# -- frontmatter -----------------------------------------------------------------------

_KEY = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-", min_size=1, max_size=8)
_SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30)
)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEY, inner, max_size=4),
    max_leaves=25,
)
_YAML_BITS = st.sampled_from(
    [": ", "- ", "[", "]", "{", "}", "&a ", "*a", "!!python/object ", "|", ">", "#", "'", '"',
     "\n", "\n  ", "\t", "---", "...", "%YAML 1.1", "? ", ",", "\\", "\x00", "\ufeff", "é"]
)  # fmt: skip


@st.composite
def alias_bomb(draw) -> str:
    levels, width = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines)


@st.composite
def deep_nesting(draw) -> str:
    depth = draw(st.integers(1, 30_000))
    opener, closer = draw(st.sampled_from([("[", "]"), ("{a: ", "}")]))
    return "x: " + opener * depth + "1" + closer * depth


frontmatter_text = st.one_of(
    st.dictionaries(_KEY, _VALUE, max_size=6).map(lambda d: yaml.safe_dump(d)),
    st.lists(st.one_of(_YAML_BITS, st.text(max_size=12)), max_size=40).map("".join),
    alias_bomb(),
    deep_nesting(),
)


def check_frontmatter(text: str) -> str:
    """Parsed or refused with one located line, within 1 s (timed twice when over: a
    shared machine can stall any one run)."""
    doc = f"---\n{text}\n---\nbody\n"
    for _ in range(2):
        started = time.perf_counter()
        outcome = _parse_once(doc)
        if time.perf_counter() - started <= 1.0:
            return outcome
    raise Broken(
        "slow", f"{len(doc)} bytes took {time.perf_counter() - started:.2f}s: {doc[:80]!r}"
    )


def _parse_once(doc: str) -> str:
    try:
        parse_markdown(doc)
        outcome = "ok"
    except FrontmatterError as exc:
        if not 1 <= exc.line <= doc.count("\n") + 1 or "\n" in exc.message:
            raise Broken("unlocated", f"line {exc.line}: {exc.message[:80]!r}") from None
        outcome = "refused"
    except Exception as exc:  # noqa: BLE001
        raise Broken("crash", f"{type(exc).__name__}: {str(exc)[:120]}") from None
    return outcome


# -- KB file trees ------------------------------------------------------------------------

_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.é ", min_size=1, max_size=12)
_FIELD_VALUE = st.one_of(_SCALAR, st.lists(_SCALAR, max_size=3), st.sampled_from(["p1", "c1"]))


@st.composite
def kb_tree(draw) -> dict[str, str]:
    """{relative path: text}: kb.yaml plus a few docs with plausible and hostile fields."""
    files = {"kb.yaml": "name: fuzz\nrepos_root: ../repos\n"}
    for _ in range(draw(st.integers(0, 6))):
        folder = draw(st.sampled_from(["projects/p1", "projects/p1/c1", "projects/p2", "adrs", ""]))
        name = draw(_NAME) + ".md"
        fields = {"kind": draw(st.sampled_from([*KINDS, "bogus"]))}
        fields.update(draw(st.dictionaries(st.sampled_from(
            ["id", "project", "component", "title", "type", "repo", "status", "secrets",
             "verification", "calls", "envs", "date", "supersedes"]), _FIELD_VALUE, max_size=6)))  # fmt: skip
        head = draw(st.one_of(st.just(yaml.safe_dump(fields)), frontmatter_text))
        body = draw(st.text(max_size=200))
        files[f"{folder}/{name}".lstrip("/")] = f"---\n{head}\n---\n{body}"
    return files


def check_kb_tree(files: dict[str, str]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "kb"
        for rel, text in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                path.write_text(text, encoding="utf-8", errors="surrogatepass")
            except OSError:
                continue  # a name the filesystem refuses is not the KB's problem
        try:
            problems = validate_kb(load_kb(root))
        except KbNotFound:
            return "refused"
        except Exception as exc:  # noqa: BLE001
            raise Broken("crash", f"{type(exc).__name__}: {str(exc)[:120]}") from None
    for problem in problems:
        if not problem.path or problem.line < 1 or "\n" in problem.message:
            raise Broken("unlocated", f"{problem.path}:{problem.line}: {problem.message[:80]!r}")
    return "refused" if any(p.severity == "error" for p in problems) else "ok"


# -- kb_sql inputs --------------------------------------------------------------------------

MARKER = "FORBIDDEN_MARKER_7Q"
_SQL_BITS = [
    "select", "*", "count(*)", "from", "nodes", "where", "id", "=", "'x'", "union all",
    "with t as (select 1)", "(", ")", ",", ";", "--", "/*", "*/", "$$", "$a$", "'", '"',
    "read_parquet('{other}')", "'{other}'", "json_execute_serialized_sql(", "json_serialize_sql(",
    "parquet_bloom_probe('{other}', 'id', 'x')", "getenv('HOME')", "copy", "attach", "pragma",
    "range(100000)", "list_sort(range(1000))", "glob('/*')", "query('select 1')", "values (1)",
    "\"read_csv\"('/etc/passwd')", "set threads=1", "limit 3",
]  # fmt: skip
_COLUMNS = ["*", "count(*)", "id", "kind", "length(id)", "upper(kind)", "getenv('HOME')",
            "(select count(*) from read_parquet('{other}'))", "$$'$$", "list_sort(range(1000))",
            "json_execute_serialized_sql(json_serialize_sql('select 1'))", "1"]  # fmt: skip
_SOURCES = ["nodes", "nodes n", "(select 1 as x)", "range(10) t(x)", "read_parquet('{other}')",
            "'{other}'", "\"read_parquet\"('{other}')", "glob('/*')", "nodes, range(100000) r"]  # fmt: skip
_TAILS = ["", "limit 3", "where id like '%a%'", "order by 1", "group by 1",
          "union all select id from read_parquet('{other}')", "-- '", "/* $$ */", "; select 2"]  # fmt: skip
_STRUCTURED = st.builds(
    lambda c, s, t: f"select {', '.join(c)} from {s} {t}",
    st.lists(st.sampled_from(_COLUMNS), min_size=1, max_size=3),
    st.sampled_from(_SOURCES),
    st.sampled_from(_TAILS),
)
sql_text = st.one_of(
    _STRUCTURED,
    st.lists(st.one_of(st.sampled_from(_SQL_BITS), st.text(max_size=6)), max_size=14).map(" ".join),
)


class SqlSandbox:
    """An in-memory connection that may read `nodes` only; `other.parquet` holds MARKER."""

    def __init__(self, folder: Path) -> None:
        allowed, self.other = folder / "nodes.parquet", folder / "other.parquet"
        pl.DataFrame({"id": ["a", "b"], "kind": ["x", "y"]}).write_parquet(allowed)
        pl.DataFrame({"id": [MARKER]}).write_parquet(self.other)
        self.con = duckdb.connect(":memory:")
        self.con.execute("SET memory_limit = '256MB'")
        parquet_view(self.con, "nodes", [allowed.as_posix()])
        sandbox(self.con, [allowed.as_posix()])

    def check(self, sql: str) -> str:
        sql = sql.replace("{other}", self.other.as_posix())
        try:
            columns, rows, _ = run_readonly(self.con, sql, row_cap=50, time_cap_s=1.0)
        except QueryRejected as exc:
            if "\n" in str(exc):
                raise Broken("unlocated", f"multi-line error for {sql[:60]!r}") from None
            return "refused"
        except Exception as exc:  # noqa: BLE001
            raise Broken("crash", f"{type(exc).__name__}: {str(exc)[:120]}") from None
        if MARKER in repr(rows):
            raise Broken("leak", f"another file was read by {sql[:80]!r}")
        return "ok"


# -- secrets in generated text ----------------------------------------------------------------

_CREDS = true_credentials()
_PROSE = honest_prose()
secret_mix = st.lists(
    st.one_of(
        st.sampled_from(range(len(_CREDS))),
        st.sampled_from(_PROSE),
        st.text(max_size=30),
    ),
    min_size=1,
    max_size=8,
)


def check_secret_mix(parts: list) -> str:
    values = [_CREDS[p]["value"] for p in parts if isinstance(p, int)]
    text = "\n".join(_CREDS[p]["text"] if isinstance(p, int) else p for p in parts)
    redacted, _ = redact_text(text)
    leaked = [v for v in values if v in redacted]
    if leaked:
        raise Broken("leak", f"{len(leaked)} value(s) kept, e.g. {leaked[0][:6]}…")
    return "redacted" if values else "ok"


# -- the property set ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Property:
    """One fuzzed property: its cases, its check (made for a scratch folder), how many cases."""

    name: str
    cases: st.SearchStrategy
    check_in: Callable[[Path], Callable[[Any], str]]
    quick: int  # cases in the quick test tier (tests/hardening/test_fuzz.py)
    long: int  # cases in `bench/fuzz.py` at --scale 1


PROPERTIES = (
    Property("frontmatter", frontmatter_text, lambda _: check_frontmatter, 40, 2000),
    Property("kb_trees", kb_tree(), lambda _: check_kb_tree, 15, 300),
    Property("kb_sql_inputs", sql_text, lambda folder: SqlSandbox(folder).check, 40, 1500),
    Property("secret_mixes", secret_mix, lambda _: check_secret_mix, 40, 2000),
)
