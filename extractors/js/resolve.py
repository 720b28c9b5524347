"""Import specifier → file resolution the way TypeScript/bundlers do it, offline and static.

Relative paths, extension-less specifiers, `index.*` files, `.js` specifiers that name a
`.ts` file, a stand-in `config.ts.example` for an absent (git-ignored) `config.ts`, and
`compilerOptions.paths` + `baseUrl` from the nearest `tsconfig.json` /
`jsconfig.json` (its chain of relative `extends` followed, each option relative to the
file that sets it). Anything else is a package.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field

from extractors.base import STAND_IN_SUFFIXES

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue")
_JS_SPEC_EXT = re.compile(r"\.(m|c)?jsx?$")
_COMMENTS = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def loads_jsonc(text: str) -> dict:
    """tsconfig files allow comments and trailing commas."""
    stripped = _COMMENTS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    try:
        data = json.loads(_TRAILING_COMMA.sub(r"\1", stripped))
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass
class PathConfig:
    folder: str  # rel folder of the config ("" for the root)
    base_url: str | None  # rel folder, or None when no baseUrl
    paths: list[tuple[str, list[str]]] = field(default_factory=list)


def package_name(spec: str) -> str:
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") and len(parts) > 1 else parts[0]


class Resolver:
    """Resolves specifiers against a set of known file rels (one component)."""

    def __init__(self, known: set[str], configs: dict[str, bytes],
                 implicit: list[tuple[str, str, list[str]]] | None = None):  # fmt: skip
        self.known = known
        self.configs = [c for c in (self._load(rel, configs) for rel in sorted(configs)) if c]
        # aliases a framework defines itself (SvelteKit's `$lib`): (folder, pattern, targets)
        self.implicit = sorted(implicit or [], key=lambda i: (-len(i[0]), -len(i[1].split("*")[0])))

    @staticmethod
    def _load(rel: str, configs: dict[str, bytes]) -> PathConfig | None:
        """The config's effective `baseUrl` and `paths`, through its chain of relative
        `extends`: each option is relative to the file that sets it (TypeScript's rule), and
        `paths` without a `baseUrl` are relative to the file that sets them."""
        folder = posixpath.dirname(rel)
        base_url: str | None = None
        paths: dict | None = None
        paths_folder = folder
        current: str | None = rel
        seen: set[str] = set()
        while current is not None and current in configs and current not in seen:
            seen.add(current)
            data = loads_jsonc(configs[current].decode("utf-8", "replace"))
            here = posixpath.dirname(current)
            options = data.get("compilerOptions") or {}
            if base_url is None and isinstance(options.get("baseUrl"), str):
                base_url = posixpath.normpath(posixpath.join(here, options["baseUrl"]))
            if paths is None and isinstance(options.get("paths"), dict):
                paths, paths_folder = options["paths"], here
            parent = data.get("extends")
            current = None
            if isinstance(parent, str) and parent.startswith("."):
                current = posixpath.normpath(posixpath.join(here, parent))
                if not current.endswith(".json"):
                    current += ".json"
        if base_url is None and not paths:
            return PathConfig(folder, None)
        base = base_url if base_url is not None else posixpath.normpath(paths_folder)
        base = "" if base == "." else base
        ordered = sorted((paths or {}).items(), key=lambda kv: -len(kv[0].split("*")[0]))
        return PathConfig(folder, base, [(k, list(v)) for k, v in ordered if isinstance(v, list)])

    def _config_for(self, rel: str) -> PathConfig | None:
        best = None
        for config in self.configs:
            inside = not config.folder or rel.startswith(config.folder + "/")
            if inside and (best is None or len(config.folder) > len(best.folder)):
                best = config
        return best

    def _file(self, path: str) -> str | None:
        path = posixpath.normpath(path)
        if path.startswith("../") or path == "..":
            return None
        path = "" if path == "." else path
        candidates = [path] if path else []
        candidates += [path + ext for ext in EXTENSIONS]
        if _JS_SPEC_EXT.search(path):
            stem = _JS_SPEC_EXT.sub("", path)
            candidates += [stem + ext for ext in EXTENSIONS]
        prefix = path + "/" if path else ""
        candidates += [prefix + "index" + ext for ext in EXTENSIONS]
        for candidate in candidates:
            if candidate in self.known:
                return candidate
        for candidate in candidates:  # a git-ignored module shipped as `config.ts.example`
            for suffix in STAND_IN_SUFFIXES:
                if candidate + suffix in self.known:
                    return candidate + suffix
        return None

    def resolve(self, from_rel: str, spec: str) -> tuple[str | None, str | None, bool]:
        """(target rel, package, looked local) — looked local: relative or alias-matched."""
        if spec.startswith("."):
            return self._file(posixpath.join(posixpath.dirname(from_rel), spec)), None, True
        if spec.startswith("/"):
            return self._file(spec.lstrip("/")), None, True
        config = self._config_for(from_rel)
        if config is not None and config.base_url is not None:
            for pattern, targets in config.paths:
                middle = _match(pattern, spec)
                if middle is None:
                    continue
                for target in targets:
                    found = self._file(
                        posixpath.join(config.base_url, target.replace("*", middle, 1))
                    )
                    if found:
                        return found, None, True
                return None, None, True
            found = self._file(posixpath.join(config.base_url, spec))
            if found:
                return found, None, True
        for folder, pattern, targets in self.implicit:
            middle = _match(pattern, spec)
            if middle is None or (folder and not from_rel.startswith(folder + "/")):
                continue
            for target in targets:
                found = self._file(posixpath.join(folder, target.replace("*", middle, 1)))
                if found:
                    return found, None, True
            return None, None, True
        return None, package_name(spec), False


def _match(pattern: str, spec: str) -> str | None:
    """What `*` stands for when a paths pattern matches the specifier ("" for an exact one)."""
    head, star, tail = pattern.partition("*")
    if star and spec.startswith(head) and spec.endswith(tail):
        return spec[len(head) : len(spec) - len(tail) if tail else None]
    return "" if not star and spec == pattern else None
