"""Hooks: what a model cannot say as data, each with the same signature
`hook(interpreter, operation, object, call, source) -> events`, named by a model's
operation (`hook: query_function`). One module per family of libraries; each exports
`HOOKS = {name: function}` and is collected here. Keep them few and general: each covers a
library's documented behaviour, never one application's habit."""

from __future__ import annotations

import importlib
import pkgutil

HOOKS: dict = {}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    for _name, _fn in getattr(_module, "HOOKS", {}).items():
        if _name in HOOKS:
            raise ValueError(f"hook {_name} is defined twice ({_info.name})")
        HOOKS[_name] = _fn
