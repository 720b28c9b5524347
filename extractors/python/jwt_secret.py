"""Flask-JWT-Extended (and Flask-JWT) sign and verify tokens with the app's `JWT_SECRET_KEY`,
else its `SECRET_KEY`. When that config key is set from an env var (`SECRET_KEY =
os.environ.get("X")` in a config class, `app.config["JWT_SECRET_KEY"] = os.environ["X"]`), every
JWT guard of the component (`@jwt_required`, `@jwt_optional`, ...) depends on X: a READS_ENV
edge from the guard's middleware node to X at the line where the JWT extension is created
(`JWTManager()`), `via` `flask-jwt-extended`, attrs `config_key` and `config_at` (the
config line that reads X).
"""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.python.model import PyModule

GUARDS = {"jwt_required", "jwt_optional", "fresh_jwt_required", "jwt_refresh_token_required",
          "verify_jwt_in_request"}  # fmt: skip
_ALIAS = re.compile(rb"\b(?:JWTManager|JWT)\s+as\s+(\w+)")
_CONFIG = re.compile(r"""^\s*(?:\w+\.config\[\s*["'])?((?:JWT_)?SECRET_KEY)\b""")


def jwt_reads(ctx: ComponentContext, mods: dict[str, PyModule],
              rows: list[tuple[str, str, str, int, dict]]) -> None:  # fmt: skip
    """Adds (guard middleware, NAME, rel, line, attrs) rows for the JWT signing key's env var."""
    made = _extension(mods)
    if made is None:
        return
    keyed: dict[str, tuple[str, str, int]] = {}  # config key → (NAME, rel, line)
    for _, name, rel, line, _ in rows:
        lines = mods[rel].sf.text.splitlines() if rel in mods else []
        found = _CONFIG.match(lines[line - 1]) if 0 < line <= len(lines) else None
        if found:
            keyed.setdefault(found.group(1), (name, rel, line))
    key = "JWT_SECRET_KEY" if "JWT_SECRET_KEY" in keyed else "SECRET_KEY"
    if key not in keyed:
        return
    name, rel, line = keyed[key]
    guards = [n for n in ctx.facts.nodes if n.kind == "middleware" and n.name in GUARDS]
    for guard in guards:
        rows.append((guard.id, name, made[0], made[1],
                     {"via": "flask-jwt-extended", "config_key": key, "config_at": f"{rel}:{line}"}))  # fmt: skip


def _extension(mods: dict[str, PyModule]) -> tuple[str, int] | None:
    """(rel, line) where the JWT extension object is created."""
    for rel, mod in sorted(mods.items()):
        if b"flask_jwt" not in mod.sf.data:
            continue
        names = [b"JWTManager", b"JWT"] + _ALIAS.findall(mod.sf.data)  # `JWTManager as J`
        found = re.search(rb"\b(" + b"|".join(map(re.escape, names)) + rb")\(", mod.sf.data)
        if found:
            return rel, mod.sf.data.count(b"\n", 0, found.start()) + 1
    return None
