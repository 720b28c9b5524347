"""Framework, client-library, config and gateway knowledge as data: one YAML model per
library under `server/`, `client/`, `config/`, `gateway/`, written from the library's
documentation, each with fixtures under `fixtures/<model id>/` (run by
tests/extractors/test_models.py). The format is in `schema.py` and README.md."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from extractors.models.schema import Model, ModelError, load_model

HERE = Path(__file__).parent
FOLDERS = ("server", "client", "config", "gateway")


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


def models_for(language: str) -> list[Model]:
    return [m for m in all_models() if m.language == language]


__all__ = ["Model", "ModelError", "all_models", "models_for"]
