"""Helpers for the metamorphic-benchmark tests: the fixture shop (an Express API, a
fetch/axios frontend, a FastAPI service, in tests/bench/fixtures/shop), rewriting it with a
family, running it for real to record what it does, and building it with `kb refresh`.

The behaviour oracle runs the fixture's own code — node for the two JS components, Python
for the FastAPI one — against recording stand-ins for the libraries it imports
(fixtures/oracle: express, axios, fastapi, requests; `fetch` is stubbed), and prints every
route registered (full path after mounts) with what its handler answers, and every HTTP
request made. Two programs with the same trace do the same thing as far as the facts go.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Plan, Rendered, render
from bench.metamorphic.families.base import Family

HERE = Path(__file__).resolve().parent
SHOP = HERE / "fixtures" / "shop"
ORACLE = HERE / "fixtures" / "oracle"
COMPONENTS = ("api", "web", "py")
ENV_KEEP = ("PATH", "HOME", "LANG", "SYSTEMROOT")


@dataclass
class Rewritten:
    component: str
    plan: Plan
    rendered: Rendered
    originals: dict[str, bytes]


def read_component(name: str, root: Path = SHOP) -> Component:
    return Component.read("shop", name, root / name)


def rewrite(family: Family, name: str) -> Rewritten:
    comp = read_component(name)
    plan = family.plan(comp)
    return Rewritten(name, plan, render(plan, comp.originals), comp.originals)


def write_copy(rw: Rewritten, dest: Path) -> Path:
    """The component's files with the rewrite applied, at `dest`."""
    shutil.copytree(SHOP / rw.component, dest)
    for rel, data in rw.rendered.files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return dest


def behaviour(name: str, root: Path, tmp: Path, env: dict[str, str] | None = None) -> dict:
    """Run the component `name` found at `root` and return its trace."""
    run = tmp / f"run-{name}-{len(list(tmp.iterdir())) if tmp.exists() else 0}"
    shutil.copytree(root, run)
    base_env = {k: v for k, v in os.environ.items() if k in ENV_KEEP}
    base_env.update(env or {})
    if name == "py":
        cmd = [sys.executable, str(ORACLE / "run_py.py"), str(run)]
    else:
        if shutil.which("node") is None:
            pytest.skip("node (Node.js) is not installed: the fixture's JS components cannot run")
        fake = "express" if name == "api" else "axios"
        shutil.copytree(ORACLE / "node_modules_src" / fake, run / "node_modules" / fake)
        script = "run_api.cjs" if name == "api" else "run_web.mjs"
        cmd = ["node", str(ORACLE / script), str(run)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=base_env, timeout=120)
    assert done.returncode == 0, f"{name} at {root} did not run:\n{done.stderr[-2000:]}"
    return json.loads(done.stdout)


KB_YAML = "name: metamorphic-fixture\nrepos_root: ../repos\ntoken_budget: 2000\n"
PROJECT_MD = "---\nkind: project\nid: {project}\ntitle: Fixture shop ({project})\ntags: [fixture]\n---\n# Fixture shop\n"
COMPONENT_MD = {
    "api": (
        "role: api\nstack: [express, javascript]\n"
        "envs:\n  local: {{url: http://localhost:3000, access: public}}\n"
    ),
    "web": (
        "role: frontend\nstack: [javascript]\n"
        "calls:\n  - url: http://localhost:3000/api\n    component: api\n"
    ),
    "py": "role: api\nstack: [fastapi, python]\n",
}


def write_kb(root: Path, projects: list[str]) -> Path:
    """A KB at root/kb whose projects each hold the three fixture components, their code
    expected at root/repos/<project>/<component>."""
    kb = root / "kb"
    (kb / "projects").mkdir(parents=True)
    (kb / "kb.yaml").write_text(KB_YAML)
    shutil.copy(
        Path(__file__).resolve().parents[2] / "bench" / "corpus" / "kb" / "vocabulary.yaml",
        kb / "vocabulary.yaml",
    )
    for project in projects:
        folder = kb / "projects" / project
        folder.mkdir()
        (folder / "project.md").write_text(PROJECT_MD.format(project=project))
        for c, extra in COMPONENT_MD.items():
            (folder / c).mkdir()
            (folder / c / "component.md").write_text(
                f"---\nkind: component\nproject: {project}\nid: {c}\ntitle: {c}\nrepo: {project}/{c}\n"
                + extra.format()
                + "verification: {status: unverified}\n---\n# "
                + c
                + "\n"
            )
    return kb
