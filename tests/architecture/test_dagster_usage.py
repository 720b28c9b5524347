"""We use Dagster as it is built: documented storage, public APIs, no patches.

Every process that reads the instance (the UI's webserver and daemon, the Celery workers,
`kb refresh`) loads the dagster.yaml we write, so one subclass of a private storage method
or one process-wide patch reaches all of them — the UI's segfault (issue 29) came from
such a subclass. Read from the source (AST) of every module of ours, tests and benches
included:

- no class subclasses Dagster's storage, instance, launcher or compute-log classes, nor
  any class from a private `dagster._…` module;
- nothing assigns, deletes or `setattr`s an attribute of Dagster, SQLAlchemy or alembic
  (a module, or a name imported from one), nor replaces a method of a live instance;
- nothing registers SQLAlchemy event listeners (they are process-wide);
and the dagster.yaml we write names only documented storage settings and classes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PATCHED = ("dagster", "dagster_webserver", "dagster_celery", "dagster_postgres")
PATCHED += ("sqlalchemy", "alembic")
SKIP_PARTS = {".venv", "node_modules", "examples", "work", "corpus", "__pycache__", ".kb"}
# Dagster's kinds of instance machinery: configured through dagster.yaml, never subclassed.
MACHINERY = ("Storage", "Instance", "ComputeLogManager", "RunLauncher", "RunCoordinator")
# A live instance's methods: replacing one on an object patches what every caller sees.
INSTANCE_METHODS = {
    "get_dynamic_partitions",
    "has_dynamic_partition",
    "get_latest_materialization_event",
    "report_runless_asset_event",
    "fetch_materializations",
    "get_event_records",
    "get_asset_records",
    "get_run_records",
    "_connect",
    "_engine",
    "has_table",
}


def our_modules() -> list[Path]:
    return sorted(
        p
        for p in ROOT.rglob("*.py")
        if not SKIP_PARTS.intersection(p.relative_to(ROOT).parts[:-1])
        and not p.relative_to(ROOT).parts[0].startswith(".")
    )


def _origin(module: str) -> bool:
    return module.split(".")[0] in PATCHED


def findings(source: str, where: str = "<source>") -> list[str]:
    """One `file:line: what` per use of Dagster, SQLAlchemy or alembic beyond their APIs."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name -> the module it came from
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _origin(alias.name):
                    bound[(alias.asname or alias.name).split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and _origin(node.module):
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    out: list[str] = []

    def root(expr: ast.expr) -> str | None:
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return expr.id if isinstance(expr, ast.Name) else None

    def dotted(expr: ast.expr) -> str:
        return ast.unparse(expr)

    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = root(base)
                origin = bound.get(name or "", "")
                if not origin:
                    continue
                full = origin + dotted(base)[len(name or "") :]
                private = any(part.startswith("_") for part in full.split(".")[1:])
                if private or any(kind in full.split(".")[-1] for kind in MACHINERY):
                    out.append(f"{line}: class {node.name} subclasses {full}")
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            if bound.get(root(target) or ""):
                out.append(f"{line}: patches {dotted(target)}")
            elif target.attr in INSTANCE_METHODS and root(target) != "self":
                out.append(f"{line}: replaces the method {dotted(target)}")
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0] if node.args else None
            if name == "setattr" and first is not None:
                patched = bound.get(root(first) or "")
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    patched = patched or (_origin(first.value) and first.value)
                if patched:
                    out.append(f"{line}: setattr on {dotted(first)}")
            if name in ("listen", "listens_for") and "sqlalchemy" in bound.get(
                root(func) or "", ""
            ):
                out.append(f"{line}: process-wide SQLAlchemy event listener {dotted(func)}")
    return out


def test_no_module_of_ours_subclasses_or_patches_dagster_sqlalchemy_or_alembic() -> None:
    modules = our_modules()
    assert len(modules) > 200, "the scan found too few modules"
    found = []
    for path in modules:
        found += findings(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "snippet",
    [
        # what pipeline/event_log.py and pipeline/instance.py did before issue 29
        "from dagster._core.storage.event_log import ConsolidatedSqliteEventLogStorage\n"
        "class Pooled(ConsolidatedSqliteEventLogStorage):\n    pass\n",
        "import dagster as dg\nclass Mine(dg.DagsterInstance):\n    pass\n",
        "from sqlalchemy import event\nfrom sqlalchemy.engine import Engine\n"
        "event.listen(Engine, 'connect', print)\n",
        "from alembic.script import ScriptDirectory\nScriptDirectory.from_config = print\n",
        "def tick(instance):\n    instance.get_dynamic_partitions = lambda name: []\n",
        "import sqlalchemy.pool\nsetattr(sqlalchemy.pool, 'NullPool', object)\n",
        "def t(monkeypatch):\n    monkeypatch.setattr('dagster._core.x.y', None)\n",
        "import dagster\ndel dagster.materialize\n",
    ],
)
def test_the_scan_catches_each_kind_of_patch(snippet: str) -> None:
    assert findings(snippet)


def test_the_scan_lets_documented_uses_through() -> None:
    clean = (
        "import dagster as dg\n"
        "class Kb(dg.ConfigurableResource):\n    root: str\n"
        "class Io(dg.IOManager):\n    pass\n"
        "def run(instance):\n"
        "    self_like = instance.get_dynamic_partitions('components')\n"
        "    dg.materialize([], instance=instance)\n"
    )
    assert findings(clean) == []


DOCUMENTED_CLASSES = {("dagster._core.storage.noop_compute_log_manager", "NoOpComputeLogManager")}


def _classes(config: object) -> list[tuple[str, str]]:
    if isinstance(config, dict):
        found = [(config["module"], config["class"])] if "module" in config else []
        return found + [c for value in config.values() for c in _classes(value)]
    return []


@pytest.mark.parametrize("postgres", [False, True], ids=["sqlite", "postgres"])
def test_the_dagster_yaml_we_write_uses_documented_storage_only(
    postgres: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.instance import dagster_home

    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    if postgres:
        monkeypatch.setenv("KB_POSTGRES_URL", "postgresql+psycopg2://kb:secret@127.0.0.1:5432/kb")
    else:
        monkeypatch.delenv("KB_POSTGRES_URL", raising=False)
    text = (dagster_home(tmp_path / "data") / "dagster.yaml").read_text(encoding="utf-8")
    config = yaml.safe_load(text)

    assert set(config) <= {"telemetry", "storage", "compute_logs"}
    assert list(config["storage"]) == (["postgres"] if postgres else ["sqlite"])
    assert set(_classes(config)) <= DOCUMENTED_CLASSES
    assert "secret" not in text  # the URL stays in the environment
    if postgres:
        assert config["storage"]["postgres"] == {"postgres_url": {"env": "KB_POSTGRES_URL"}}


def test_the_instance_we_open_runs_on_dagsters_own_sqlite_storage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.instance import open_instance

    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("KB_POSTGRES_URL", raising=False)
    with open_instance(tmp_path / "data") as instance:
        for storage in (instance.run_storage, instance.event_log_storage):
            assert type(storage).__module__.startswith("dagster._core.storage.")
        assert type(instance.event_log_storage).__name__ == "SqliteEventLogStorage"
