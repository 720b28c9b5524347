"""The rewrite families, in issue order. Family 0 (identity) rewrites nothing: the control
whose invariance must be 1.0 (a build of the copies reproduces the baseline)."""

from __future__ import annotations

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Plan
from bench.metamorphic.families import (
    base_url,
    chains,
    client_property,
    functions,
    loops,
    prefix,
    reexport,
    rename,
    split,
    strings,
    ternary,
    wrappers,
)
from bench.metamorphic.families.base import Family


def _identity(comp: Component, plan: Plan) -> None:
    del comp, plan


IDENTITY = Family(
    0, "identity", "no rewrite (control: the copies rebuild to the same facts)", _identity
)
FAMILIES: list[Family] = [
    m.FAMILY
    for m in (
        rename,
        base_url,
        prefix,
        loops,
        reexport,
        split,
        wrappers,
        client_property,
        strings,
        functions,
        chains,
        ternary,
    )
]
BY_KEY = {f.key: f for f in [IDENTITY, *FAMILIES]}
