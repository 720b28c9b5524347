"""The five fact kinds the metamorphic benchmark compares, read from a published warehouse
with `kb sql --json` (tables nodes, edges): routes, frontend call sites, CALLS bridges, env
reads and handler -> service calls (CALLS_FN from a route's handler, one alias hop
followed, as bench/accuracy_graph.py does)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("routes", "http_calls", "calls", "env_reads", "handler_calls")
SIDE_KINDS = ("http_url",)  # reported beside: the whole URL template agrees

QUERY = """
select 'routes' as kind, project, component, name as a, '' as b, file, line,
       '' as file2, cast(null as bigint) as line2, attrs
  from nodes where kind = 'route'
union all
select 'http_calls', project, component, name, '', file, line, '', null, attrs
  from nodes where kind = 'http_call'
union all
select 'calls', s.project, s.component, d.component, d.name, s.file, s.line, '', null, e.attrs
  from edges e join nodes s on s.id = e.src join nodes d on d.id = e.dst
 where e.type = 'CALLS'
union all
select 'env_reads', e.project, e.component, v.name, '', e.file, e.line, '', null, ''
  from edges e join nodes v on v.id = e.dst where e.type = 'READS_ENV'
union all
select 'handler_calls', r.project, r.component, r.name, '', c.file, c.line, e.file, e.line, ''
  from nodes r
  join edges rt on rt.src = r.id and rt.type = 'ROUTES_TO'
  join edges e on e.src = rt.dst and e.type = 'CALLS_FN'
  join nodes c on c.id = e.dst and c.kind = 'symbol'
 where r.kind = 'route'
union all
select 'handler_calls', r.project, r.component, r.name, '', c2.file, c2.line, e.file, e.line, ''
  from nodes r
  join edges rt on rt.src = r.id and rt.type = 'ROUTES_TO'
  join edges e on e.src = rt.dst and e.type = 'CALLS_FN'
  join edges e2 on e2.src = e.dst and e2.type = 'CALLS_FN'
                and json_extract_string(e2.attrs, '$.via') = 'alias'
  join nodes c2 on c2.id = e2.dst and c2.kind = 'symbol'
 where r.kind = 'route'
"""


@dataclass(frozen=True)
class Fact:
    """One fact with its raw parts: `a`/`b` by kind (route name; http_call name; CALLS
    target component and route; env var name), and one or two locations."""

    kind: str
    project: str
    component: str
    a: str
    b: str
    file: str
    line: int
    file2: str = ""
    line2: int = 0
    attrs: str = field(default="", compare=False)

    @property
    def where(self) -> str:
        at = f"{self.file}:{self.line}"
        return at + (f" / {self.file2}:{self.line2}" if self.file2 else "")

    def label(self) -> str:
        what = {
            "routes": self.a,
            "http_calls": self.a,
            "calls": f"→ {self.a} {self.b}",
            "env_reads": self.a,
            "handler_calls": f"{self.a} → callee",
        }[self.kind]
        return f"{self.project}/{self.component} {what} @ {self.where}"


def parse_rows(rows: list[dict]) -> list[Fact]:
    out = []
    for r in rows:
        out.append(
            Fact(
                r["kind"],
                r["project"] or "",
                r["component"] or "",
                r["a"] or "",
                r["b"] or "",
                r["file"] or "",
                int(r["line"] or 0),
                r["file2"] or "",
                int(r["line2"] or 0),
                r["attrs"] or "",
            )  # fmt: skip
        )
    return sorted(
        set(out),
        key=lambda f: (f.kind, f.project, f.component, f.file, f.line, f.a, f.b, f.file2, f.line2),
    )


def kb_exe() -> str:
    return str(Path(sys.executable).with_name("kb"))


def read_facts(kb: Path, data_dir: Path, timeout: int = 300) -> list[Fact]:
    """Every fact of the build, through the real `kb sql --json`."""
    done = subprocess.run(
        [kb_exe(), "sql", "--json", "--limit", "10000000", "--kb", str(kb), "--data-dir", str(data_dir), QUERY],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(
            f"kb sql failed on {data_dir}: {(done.stderr or done.stdout).strip()[-400:]}"
        )
    return parse_rows(json.loads(done.stdout or "[]"))
