"""Framework, client-library, config, gateway, ORM and test-framework knowledge as data: one
YAML model per library under `server/`, `client/`, `config/`, `gateway/`, `orm/`, `test/`,
written from the library's documentation, each with fixtures under `fixtures/<model id>/`
(run by tests/extractors/test_models.py). The format is in `schema.py` and README.md."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from extractors.models.schema import Model, ModelError, load_model

HERE = Path(__file__).parent
FOLDERS = ("server", "client", "config", "gateway", "orm", "test")


@cache
def all_models() -> tuple[Model, ...]:
    """Every model file, sorted by folder and id; duplicate ids are an error."""
    found: dict[str, Model] = {}
    for folder in FOLDERS:
        for path in sorted((HERE / folder).glob("*.yaml")):
            model = load_model(path)
            if model.id in found:
                raise ModelError(f"{path}: model id {model.id!r} is also {found[model.id].path}")
            found[model.id] = model
    return tuple(found.values())


def import_paths(manifests: dict[str, bytes]) -> list[tuple[str, str, list[str]]]:
    """Import aliases the frameworks a component uses define themselves (SvelteKit's
    `$lib` → `src/lib`): (folder of the package.json declaring it, pattern, targets)."""
    out: list[tuple[str, str, list[str]]] = []
    models = [m for m in all_models() if m.paths]
    for rel, data in sorted(manifests.items()):
        if rel.rsplit("/", 1)[-1] != "package.json" or not models:
            continue
        deps = declared_packages(data)
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        for model in models:
            if deps & set(model.detect.get("npm", ())):
                out += [
                    (folder, pattern, list(targets)) for pattern, targets in model.paths.items()
                ]
    return out


def declared_packages(data: bytes) -> set[str]:
    """The packages a package.json declares (dependencies, dev and peer), empty when it is
    not a JSON object."""
    try:
        manifest = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        return set()
    deps: set[str] = set()
    for key in ("dependencies", "devDependencies", "peerDependencies"):
        if isinstance(manifest, dict) and isinstance(manifest.get(key), dict):
            deps |= set(manifest[key])
    return deps


def models_for(language: str) -> list[Model]:
    return [m for m in all_models() if m.language == language]


__all__ = ["Model", "ModelError", "all_models", "declared_packages", "import_paths", "models_for"]
