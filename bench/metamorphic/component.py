"""A component as the families see it: its source files (parsed on demand) and what its
manifests say about the runtime (Node server or a browser bundle, and which bundler)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from bench.metamorphic.syntax import Source, load

SKIP_DIRS = {
    ".git", "node_modules", "dist", "build", ".next", ".nuxt", "coverage", "__pycache__",
    ".venv", "venv", ".output", "vendor",
}  # fmt: skip
SERVER_PACKAGES = {"express", "koa", "@koa/router", "koa-router", "fastify", "@nestjs/core", "hapi", "@hapi/hapi", "firebase-functions"}  # fmt: skip
BUNDLERS = {
    "webpack", "rollup", "parcel", "esbuild", "vite", "next", "nuxt", "react-scripts", "@vue/cli-service",
    "@web/dev-server", "@sveltejs/kit", "astro", "gatsby", "@angular-devkit/build-angular", "@angular/cli",
}  # fmt: skip
MAX_BYTES = 400_000
_RELATIVE_IMPORT = re.compile(rb"""(?:from|import|require\()\s*['"](\.{1,2}/[^'"]+)['"]""")


@dataclass
class Component:
    project: str
    component: str
    root: Path
    originals: dict[str, bytes] = field(default_factory=dict)  # every file, by POSIX rel path
    _sources: dict[str, Source | None] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, project: str, component: str, root: Path) -> Component:
        comp = cls(project, component, root)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
                    continue
                comp.originals[path.relative_to(root).as_posix()] = path.read_bytes()
        return comp

    def source(self, rel: str) -> Source | None:
        if rel not in self._sources:
            self._sources[rel] = load(rel, self.originals[rel]) if rel in self.originals else None
        return self._sources[rel]

    def sources(self, *languages: str, tests: bool = False) -> list[Source]:
        """Parsed files of these grammars ("js" = the JS family, Vue scripts included),
        skipping minified bundles, files tree-sitter cannot parse cleanly and, unless
        `tests`, tests: they are never rewritten, but a check of who imports a name that a
        rewrite moves must see them (a fixture importing the app factory)."""
        wanted = set(languages)
        if "js" in wanted:
            wanted |= {"javascript", "typescript", "tsx"}
        out = []
        for rel in sorted(self.originals):
            if (_is_test(rel) and not tests) or rel.endswith((".min.js", ".d.ts")):
                continue
            src = self.source(rel)
            if src is not None and src.language in wanted and not src.has_errors():
                out.append(src)
        return out

    @property
    def package(self) -> dict:
        raw = self.originals.get("package.json")
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return {}

    def dependencies(self) -> set[str]:
        pkg = self.package
        deps: set[str] = set()
        for key in ("dependencies", "devDependencies", "peerDependencies"):
            deps |= set(pkg.get(key) or {})
        return deps

    def python_requirements(self) -> str:
        names = (
            "requirements.txt",
            "pyproject.toml",
            "setup.py",
            "Pipfile",
            "requirements/prod.txt",
        )
        text = b"\n".join(
            v for k, v in self.originals.items() if k.split("/")[-1] in names or k in names
        )
        return text.decode("utf-8", "replace").lower()

    def runtime(self) -> str:
        """How env vars reach JS code: "node" (process.env at run time), "vite"
        (import.meta.env.VITE_*), "next" (process.env.NEXT_PUBLIC_*), "cra"
        (process.env.REACT_APP_*), or "" (no env mechanism we can prove)."""
        deps = self.dependencies()
        if "next" in deps:
            return "next"
        if "vite" in deps or any(d.startswith("@vitejs/") for d in deps):
            return "vite"
        if "react-scripts" in deps:
            return "cra"
        if deps & SERVER_PACKAGES:
            return "node"
        return ""

    def explicit_extensions(self, src: Source) -> bool:
        """Whether a new relative import from `src` must name the file's extension (and a
        folder its index file): Node's own ES module loader requires it, a bundler does
        not. The file's own relative imports decide first; else ESM JS outside a bundler."""
        specs = [m.group(1).decode() for m in _RELATIVE_IMPORT.finditer(src.data)]
        if specs:
            return any(
                s.rsplit("/", 1)[-1].count(".") and s.endswith((".js", ".mjs", ".cjs", ".ts"))
                for s in specs
            )
        from bench.metamorphic.syntax import module_kind

        return (
            src.language == "javascript"
            and module_kind(src) == "esm"
            and not (self.dependencies() & BUNDLERS)
        )

    def env_expression(self, name: str) -> str | None:
        """A JS expression reading env var `name` (prefixed as the bundler requires)."""
        runtime = self.runtime()
        if runtime == "node":
            return f"process.env.{name}"
        if runtime == "next":
            return f"process.env.NEXT_PUBLIC_{name}"
        if runtime == "cra":
            return f"process.env.REACT_APP_{name}"
        if runtime == "vite":
            return f"import.meta.env.VITE_{name}"
        return None


def _is_test(rel: str) -> bool:
    parts = rel.lower().split("/")
    name = parts[-1]
    return (
        any(
            p in ("test", "tests", "__tests__", "e2e", "cypress", "__mocks__", "migrations")
            for p in parts[:-1]
        )
        or ".spec." in name
        or ".test." in name
        or name.startswith("test_")
        or name == "conftest.py"
    )
