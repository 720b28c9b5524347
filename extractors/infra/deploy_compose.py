"""Docker Compose files: each service's `image` and `ports` as settings, its `environment`
entries (map or list form) as env declarations (see `infra.deploy`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import yaml

from extractors.infra.locate import line_of, ymap, yscalar, yseq
from extractors.source import SourceFile
from vocab import safe_yaml

if TYPE_CHECKING:
    from extractors.infra.emit import Emitter

_COMPOSE_NAME = re.compile(r"^(docker-)?compose([.-][\w.-]+)?\.ya?ml$|^[\w.-]+\.compose\.ya?ml$")


def read(emit: Emitter, sf: SourceFile, base: str) -> bool:
    if not _COMPOSE_NAME.match(base):
        return False
    try:
        _, root = safe_yaml.load_with_node(sf.text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or type(exc).__name__
        emit.ctx.problem("warning", sf.rel, mark.line + 1 if mark else None, "compose-file",
                         f"compose file unreadable, services not read: {what} — fix the YAML")  # fmt: skip
        return True
    for service, (_, body) in ymap(ymap(root).get("services", (None, None))[1]).items():
        _service(emit, sf, service, ymap(body))
    return True


def _service(emit: Emitter, sf: SourceFile, service: str, body: dict[str, tuple]) -> None:
    if "image" in body and (image := yscalar(body["image"][1])):
        emit.setting(sf, line_of(body["image"][0]), f"services.{service}.image", image,
                     "container image", "docker-compose", "yaml")  # fmt: skip
    if "build" in body:
        key, value = body["build"]
        context = yscalar(value) or yscalar(ymap(value).get("context", (None, None))[1])
        emit.setting(sf, line_of(key), f"services.{service}.build", context or ".",
                     "built from this folder", "docker-compose", "yaml")  # fmt: skip
    for item in yseq(body.get("ports", (None, None))[1]):
        port = yscalar(item) or yscalar(ymap(item).get("published", (None, None))[1])
        emit.setting(sf, line_of(item), f"services.{service}.ports", port,
                     "published port (host:container)", "docker-compose", "yaml")  # fmt: skip
    for line, name, value in _environment(body):
        emit.env(sf, line, name, value, "docker-compose", "yaml", service=service)


def _environment(body: dict[str, tuple]) -> list[tuple[int, str, str | None]]:
    """(line, NAME, value or None) of a service's `environment` (map or list form)."""
    environment = body.get("environment", (None, None))[1]
    out = [(line_of(key), name, yscalar(value)) for name, (key, value) in ymap(environment).items()]
    for item in yseq(environment):
        name, sep, value = (yscalar(item) or "").partition("=")
        out.append((line_of(item), name.strip(), value if sep else None))
    return out


def environment_values(sf: SourceFile) -> list[tuple[int, str, str]]:
    """(line, NAME, value) every service of a compose file sets, for the values an env var
    read in the code takes (`engine/config_sources.py`); nothing when it does not parse."""
    if not _COMPOSE_NAME.match(sf.rel.rsplit("/", 1)[-1]):
        return []
    try:
        _, root = safe_yaml.load_with_node(sf.text)
    except yaml.YAMLError:
        return []  # `read` reports it
    services = ymap(ymap(root).get("services", (None, None))[1])
    return [(line, name, value) for _, (_, body) in services.items()
            for line, name, value in _environment(ymap(body)) if value is not None]  # fmt: skip
