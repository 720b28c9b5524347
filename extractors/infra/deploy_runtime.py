"""Runtime versions and how a component is started: package.json engines, version files,
pyproject's Python range, Dockerfiles, Procfile, App Engine app.yaml (see `infra.deploy`)."""

from __future__ import annotations

import re
import tomllib
from typing import TYPE_CHECKING

import yaml

from extractors.infra.locate import json_lines, line_of, load_json, ymap, yscalar
from extractors.source import SourceFile
from vocab import safe_yaml

if TYPE_CHECKING:
    from extractors.infra.emit import Emitter

VERSION_FILES = {
    ".nvmrc": "Node.js version (nvm)",
    ".node-version": "Node.js version (.node-version)",
    ".python-version": "Python version (pyenv)",
    "runtime.txt": "Python runtime (runtime.txt)",
}
_DOCKER_NAME = re.compile(r"^(Dockerfile([.-][\w.-]+)?|[\w.-]+\.[Dd]ockerfile)$")
_DOCKER_LINE = re.compile(r"^\s*([A-Za-z]+)\s+(.*)$")
_FROM = re.compile(r"^(?:--\S+\s+)*(\S+)(?:\s+[Aa][Ss]\s+(\S+))?")
_ENV_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\"(?:[^\"\\]|\\.)*\"|'[^']*'|\S*)")
_ARG = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S+)")
_ARG_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_PROCFILE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.+?)\s*$")


def read(emit: Emitter, sf: SourceFile, base: str) -> bool:
    if base == "package.json":
        _package_json(emit, sf)
    elif base in VERSION_FILES:
        _version_file(emit, sf, base)
    elif base == ".tool-versions":
        _tool_versions(emit, sf)
    elif base in {"pyproject.toml", "Pipfile"}:
        _python_range(emit, sf, base)
    elif _DOCKER_NAME.match(base):
        _dockerfile(emit, sf)
    elif base == "Procfile":
        _procfile(emit, sf)
    elif base in {"app.yaml", "app.yml"}:
        _app_yaml(emit, sf)
    else:
        return False
    return True


def _package_json(emit: Emitter, sf: SourceFile) -> None:
    data = load_json(sf)
    if not isinstance(data, dict):
        return  # `infra.packages` reports an invalid package.json
    lines = json_lines(sf)
    for section in ("engines", "volta"):
        block = data.get(section)
        for tool, version in block.items() if isinstance(block, dict) else []:
            if isinstance(version, str):
                what = "required" if section == "engines" else "pinned by Volta"
                emit.setting(sf, lines.get((section, tool)), f"{section}.{tool}", version,
                             f"{_tool_name(tool)} version {what}", "package.json", "manifest")  # fmt: skip
    manager = data.get("packageManager")
    if isinstance(manager, str):
        emit.setting(sf, lines.get(("packageManager",)), "packageManager", manager,
                     "package manager and version (corepack)", "package.json", "manifest")  # fmt: skip


def _tool_name(tool: str) -> str:
    return {"node": "Node.js", "nodejs": "Node.js", "python": "Python"}.get(tool, tool)


def _version_file(emit: Emitter, sf: SourceFile, base: str) -> None:
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        value = raw.split("#", 1)[0].strip()
        if value:
            emit.setting(sf, number, base, value, VERSION_FILES[base], base, "text")
            return


def _tool_versions(emit: Emitter, sf: SourceFile) -> None:
    """asdf: `nodejs 18.17.0` per line."""
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if len(words) >= 2:
            emit.setting(sf, number, words[0], " ".join(words[1:]),
                         f"{_tool_name(words[0])} version (asdf)", ".tool-versions", "text")  # fmt: skip


def _dig(data: object, *keys: str) -> object:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _python_range(emit: Emitter, sf: SourceFile, base: str) -> None:
    """pyproject `requires-python`, Poetry's `python` dependency, Pipfile `[requires]`."""
    try:
        data = tomllib.loads(sf.text)
    except tomllib.TOMLDecodeError:
        return  # `infra.packages` reports it
    candidates = [
        ("requires-python", _dig(data, "project", "requires-python"), "project"),
        ("python", _dig(data, "tool", "poetry", "dependencies", "python"),
         "tool.poetry.dependencies"),
        ("python_version", _dig(data, "requires", "python_version"), "requires"),
        ("python_full_version", _dig(data, "requires", "python_full_version"), "requires"),
    ]  # fmt: skip
    wanted = [(k, v, t) for k, v, t in candidates if isinstance(v, str)]
    table = ""
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        if raw.strip().startswith("["):
            table = raw.strip().strip("[]").strip()
        for key, value, in_table in wanted:
            if table == in_table and re.match(rf"^\s*{re.escape(key)}\s*=", raw):
                emit.setting(sf, number, key, value, "Python version required", base, "manifest")


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Dockerfile instructions with `\\` continuations joined, at their first line."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if pending is None and (not raw.strip() or raw.lstrip().startswith("#")):
            continue
        start, sofar = pending or (number, "")
        if raw.rstrip().endswith("\\"):
            pending = (start, sofar + raw.rstrip()[:-1] + " ")
            continue
        pending = None
        out.append((start, sofar + raw))
    if pending is not None:
        out.append(pending)
    return out


def _dockerfile(emit: Emitter, sf: SourceFile) -> None:
    stages: set[str] = set()
    args: dict[str, str] = {}  # ARG defaults, substituted into FROM
    stage = None
    for number, line in _logical_lines(sf.text):
        found = _DOCKER_LINE.match(line)
        if found is None:
            continue
        word, rest = found.group(1).upper(), " ".join(found.group(2).split())
        if word == "ARG" and (arg := _ARG.match(rest)):
            args.setdefault(arg.group(1), arg.group(2).strip("\"'"))
        elif word == "FROM" and (image := _FROM.match(rest)):
            stage = image.group(2)
            written = image.group(1)
            value = _ARG_REF.sub(lambda m: args.get(m.group(1) or m.group(2), m.group(0)), written)
            if value.lower() not in stages:
                about = "base image" + (f" of build stage {stage}" if stage else "")
                emit.setting(sf, number, "FROM", value, about, "Dockerfile", "dockerfile",
                             stage=stage, written=written if value != written else None)  # fmt: skip
            if stage:
                stages.add(stage.lower())
        elif word in {"EXPOSE", "CMD", "ENTRYPOINT"}:
            about = {"EXPOSE": "container port", "CMD": "container command",
                     "ENTRYPOINT": "container entrypoint"}[word]  # fmt: skip
            emit.setting(sf, number, word, rest, about, "Dockerfile", "dockerfile", stage=stage)
        elif word == "ENV":
            words = rest.split(None, 1)
            pairs = _ENV_PAIR.findall(rest)
            if len(words) == 2 and "=" not in words[0]:  # legacy `ENV NAME value`
                pairs = [(words[0], words[1])]
            for name, value in pairs:
                emit.env(sf, number, name, value.strip("\"'"), "Dockerfile", "dockerfile")


def _procfile(emit: Emitter, sf: SourceFile) -> None:
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        if found := _PROCFILE.match(raw):
            emit.setting(sf, number, found.group(1), found.group(2),
                         f"Procfile {found.group(1)} process command", "Procfile", "procfile")  # fmt: skip


def _app_yaml(emit: Emitter, sf: SourceFile) -> None:
    """App Engine: `runtime`, `entrypoint`, `service`, `env_variables`."""
    try:
        _, root = safe_yaml.load_with_node(sf.text)
    except yaml.YAMLError:
        return
    top = ymap(root)
    if "runtime" not in top and "env_variables" not in top:
        return  # another tool's app.yaml
    for key, about in (("runtime", "App Engine runtime"), ("entrypoint", "App Engine entrypoint"),
                       ("service", "App Engine service name")):  # fmt: skip
        if key in top and (value := yscalar(top[key][1])):
            emit.setting(sf, line_of(top[key][0]), key, value, about, "app.yaml", "yaml")
    for name, (key, value) in ymap(top.get("env_variables", (None, None))[1]).items():
        emit.env(sf, line_of(key), name, yscalar(value), "app.yaml", "yaml")
