"""Backend SDK models (`sdk/<id>.yaml`): the managed backends an app talks to through an SDK
instead of HTTP routes of its own (Firestore, Firebase Auth / Storage / Realtime Database,
Genkit). Each file, written from the SDK's reference documentation, names the modules whose
functions it reads, which of those functions do I/O and with what access, and how a
document or object path is built; `extractors/js/sdk_calls.py` is the mechanism that reads
them. Fixtures: `fixtures/<id>/<case>/`, run by tests/extractors/test_models.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from extractors.models.schema import ModelError

FOLDER = Path(__file__).parent / "sdk"
KEYS = {"id", "title", "label", "docs", "modules", "backend", "access", "functions", "refs",
        "transaction", "batch", "chain", "instance", "plugin_env"}  # fmt: skip
CHAIN_KEYS = {"segments", "needs", "passes", "methods", "package"}
REF_KINDS = {"join", "new_id", "base"}  # how a ref function builds its path (sdk/*.yaml)


@dataclass(frozen=True)
class Chain:
    """The namespaced form `db.collection("a").doc(id).get()`: path segments, query steps
    passed over, the terminal methods with their access."""

    segments: frozenset[str]
    needs: frozenset[str]  # one of these steps, else the chain is no path of this SDK
    passes: frozenset[str]
    methods: dict[str, str]
    package: str  # named when the file imports none of the SDK's modules


@dataclass(frozen=True)
class Sdk:
    id: str
    title: str
    label: str  # how its calls are named: `<label> <op> <resource>`
    docs: str
    path: Path
    modules: frozenset[str]  # import specs whose functions are read
    backend: tuple[str, ...]  # import specs (prefixes) of a file that talks to a backend
    functions: dict[str, str]  # module function doing I/O -> access
    refs: dict[str, str] = field(default_factory=dict)  # path-building function -> REF_KINDS
    transaction: str = ""  # its resource: every path its function builds
    batch: tuple[str, str, str] | None = None  # (maker, commit method, access)
    chain: Chain | None = None
    instance: tuple[str, str, frozenset[str]] | None = None  # (module, maker, methods)
    plugin_env: dict[str, str] = field(default_factory=dict)


@cache
def all_sdks() -> tuple[Sdk, ...]:
    """Every SDK model, sorted by file name; a malformed file is one `ModelError` line."""
    return tuple(load_sdk(path) for path in sorted(FOLDER.glob("*.yaml")))


def load_sdk(path: Path) -> Sdk:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ModelError(f"{path}: not YAML ({exc}) — fix the syntax") from None
    if not isinstance(data, dict):
        raise ModelError(f"{path}: an SDK model is a mapping — see extractors/models/sdks.py")
    unknown = set(data) - KEYS
    missing = {"id", "title", "label", "docs", "modules", "functions"} - set(data)
    if unknown or missing:
        what = f"unknown keys {sorted(unknown)}" if unknown else f"missing {sorted(missing)}"
        raise ModelError(f"{path}: {what} — the keys are {sorted(KEYS)}")
    functions = data["functions"]
    if isinstance(functions, list):  # one access for all of them
        functions = {name: data.get("access", "") for name in functions}
    if not isinstance(functions, dict) or not all(functions.values()):
        raise ModelError(f"{path}: functions need an access each (or `access:` for a list)")
    return Sdk(
        id=data["id"],
        title=data["title"],
        label=data["label"],
        docs=data["docs"],
        path=path,
        modules=frozenset(data["modules"]),
        backend=tuple(data.get("backend") or ()),
        functions=dict(functions),
        refs=_refs(path, data.get("refs")),
        transaction=data.get("transaction") or "",
        batch=_batch(path, data.get("batch")),
        chain=_chain(path, data.get("chain")),
        instance=_instance(path, data.get("instance")),
        plugin_env=dict(data.get("plugin_env") or {}),
    )


def _refs(path: Path, raw) -> dict[str, str]:
    refs = dict(raw or {})
    if any(kind not in REF_KINDS for kind in refs.values()):
        raise ModelError(f"{path}: a ref is one of {sorted(REF_KINDS)} (refs: {{doc: new_id}})")
    return refs


def _batch(path: Path, raw) -> tuple[str, str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"maker", "commit", "access"}:
        raise ModelError(f"{path}: batch is {{maker: <function>, commit: <method>, access: …}}")
    return raw["maker"], raw["commit"], raw["access"]


def _chain(path: Path, raw) -> Chain | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= CHAIN_KEYS or "methods" not in raw:
        raise ModelError(f"{path}: chain takes {sorted(CHAIN_KEYS)}, methods required")
    return Chain(
        frozenset(raw.get("segments") or ()),
        frozenset(raw.get("needs") or raw.get("segments") or ()),
        frozenset(raw.get("passes") or ()),
        dict(raw["methods"]),
        raw.get("package") or "",
    )


def _instance(path: Path, raw) -> tuple[str, str, frozenset[str]] | None:
    if raw is None:
        return None
    maker = raw.get("maker", "") if isinstance(raw, dict) else ""
    if "#" not in maker or not raw.get("methods"):
        raise ModelError(f"{path}: instance is {{maker: <module>#<export>, methods: [...]}}")
    module, export = maker.split("#", 1)
    return module, export, frozenset(raw["methods"])
