"""kb.yaml and vocabulary.yaml checked against `kb.schema` (SETTINGS_FIELDS, the
vocabulary's shape): a value of the wrong type or out of range is one `kb.yaml:line`
problem and its default is used, so a typo never turns into a traceback or a setting
silently ignored; a vocabulary list written as text or a mapping is an error, not a
check quietly switched off."""

from __future__ import annotations

from typing import Any

from kb.problems import Problem
from kb.schema import SETTINGS_FIELDS


def _type_name(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), f"a {type(value).__name__}"
    )


def check_settings(raw: dict[str, Any], lines: dict[str, int]) -> tuple[dict, list[Problem]]:
    """({dotted key: value} of every setting, defaults where absent or wrong; problems)."""
    values: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, (kind, bounds, default) in SETTINGS_FIELDS.items():
        parent, _, leaf = key.rpartition(".")
        holder = raw.get(parent) if parent else raw
        value = holder.get(leaf) if isinstance(holder, dict) else None
        values[key] = default
        if value is None:
            continue
        why = _wrong(kind, bounds, value)
        if why:
            fix = f"{why} — write {_shape(kind, bounds)}"
            if default is not None:
                fix += f" (using the default, {default})"
            problems.append(Problem("kb.yaml", lines.get(key, 1), "error", "type", f"{key} {fix}"))
            continue
        values[key] = value
    return values, problems


def _wrong(kind: str, bounds: tuple[int, int] | None, value: Any) -> str | None:
    if kind == "str" and not isinstance(value, str | int | float) or isinstance(value, bool):
        return f"must be text, got {_type_name(value)}"
    if kind == "mapping" and not isinstance(value, dict):
        return f"must be a mapping of key: value, got {_type_name(value)}"
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be a whole number, got {_type_name(value)}"  # never echo a value
        if bounds and not bounds[0] <= value <= bounds[1]:
            return f"is {value}, outside {bounds[0]}..{bounds[1]}"
    return None


def _shape(kind: str, bounds: tuple[int, int] | None) -> str:
    if kind == "int" and bounds:
        return f"a whole number from {bounds[0]} to {bounds[1]}"
    return {"str": "plain text", "mapping": "indented key: value lines"}.get(kind, kind)


def check_vocabulary(raw: dict[str, Any], lines: dict[str, int]) -> tuple[dict, list[Problem]]:
    """({field: [allowed values]}, problems): each value must be a list of plain values."""
    vocabulary: dict[str, list[str]] = {}
    problems: list[Problem] = []
    for key, value in raw.items():
        line = lines.get(str(key), 1)
        if not isinstance(value, list):
            problems.append(
                Problem(
                    "vocabulary.yaml",
                    line,
                    "error",
                    "type",
                    f"{key} must be a list of allowed values, got {_type_name(value)} — "
                    f"write {key}: [a, b] (an empty list [] leaves {key} free-form)",
                )
            )
            continue
        bad = [i for i, item in enumerate(value) if isinstance(item, dict | list) or item is None]
        if bad:
            problems.append(
                Problem(
                    "vocabulary.yaml",
                    lines.get(f"{key}.{bad[0]}", line),
                    "error",
                    "type",
                    f"{key} lists {_type_name(value[bad[0]])} where a plain value goes — "
                    f"write each allowed value as text: {key}: [a, b]",
                )
            )
        vocabulary[str(key)] = [str(x) for x in value if not isinstance(x, dict | list)]
    return vocabulary, problems
