"""`kb ui`: the Dagster UI (`dagster dev`: webserver + daemon) for one KB and its warehouse.

It runs the same instance `kb refresh` writes (`<data dir>/dagster`, or `$DAGSTER_HOME`),
so the UI shows the refreshes' runs and the refreshes see the UI's, on SQLite or on the
team's PostgreSQL (`KB_POSTGRES_URL`). The process becomes `dagster dev` (exec): no extra
process in between, and the signals a person sends reach Dagster directly. Its SIGINT and
SIGTERM are restored first (`vocab.stop_signals`): `dagster dev` maps SIGTERM to SIGINT's
handler, so started from a shell that ignores SIGINT it could be stopped by neither.
Imports no Dagster.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from pipeline.instance import dagster_home
from pipeline.settings import (
    POSTGRES_URL_ENV,
    UI_AUTOMATION_ENV,
    postgres_unreachable,
    postgres_url,
    storage_error,
    ui_automation,
    ui_automation_error,
)

CODE_LOCATION = "pipeline.definitions"  # also [tool.dagster] in pyproject.toml
# Dagster's own setting for how long the webserver and the daemon wait on the code server
# (default 60 s). Under load — a large portfolio refreshing on two cores — a run launch or a
# sensor tick can take longer, and the daemon then fails the run ("User code server request
# timed out"); measured in bench/soak.py on 46 components. A person's own value is kept.
GRPC_TIMEOUT_ENV = "DAGSTER_GRPC_TIMEOUT_SECONDS"
GRPC_TIMEOUT_S = "300"
# The asset groups of the code location (tests/pipeline/test_dagster_ui.py checks them
# against the definitions): the lineage opens with every group collapsed, so the address
# `kb ui` prints expands them all.
ASSET_GROUPS = (
    "sources",
    "imports",
    "knowledge",
    "docs",
    "code",
    "graph",
    "verification",
    "warehouse",
)


def lineage_url(host: str, port: int) -> str:
    """The asset lineage with every group expanded."""
    expanded = ",".join(f"global@global:{group}" for group in ASSET_GROUPS)
    return f"http://{host}:{port}/asset-groups?expanded={expanded}"


@dataclass(frozen=True)
class UiLaunch:
    argv: list[str]
    env: dict[str, str]
    home: Path
    storage: str  # "sqlite" | "postgres", for the line printed before starting


def ui_launch(
    kb_root: Path, data_dir: Path, host: str, port: int, automation: str | None = None
) -> UiLaunch:
    """What `kb ui` executes; raises ValueError with one line when the setting is wrong.
    `automation` ("on"/"off") sets whether the daemon builds stale assets by itself;
    None keeps KB_UI_AUTOMATION (default on)."""
    if error := (
        storage_error()
        or (ui_automation_error() if automation is None else None)
        or postgres_unreachable()
    ):
        raise ValueError(error)
    home = dagster_home(data_dir).resolve()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "KB_ROOT": str(Path(kb_root).resolve()),
        "KB_DATA_DIR": str(Path(data_dir).resolve()),
    }
    if automation is not None:
        env[UI_AUTOMATION_ENV] = automation
    env.setdefault(GRPC_TIMEOUT_ENV, GRPC_TIMEOUT_S)
    dagster = str(Path(sys.executable).with_name("dagster"))
    argv = [dagster, "dev", "-m", CODE_LOCATION, "-h", host, "-p", str(port)]
    return UiLaunch(argv, env, home, "postgres" if postgres_url() else "sqlite")


def describe(launch: UiLaunch, host: str, port: int) -> str:
    """What `kb ui` prints before Dagster starts: where, the lineage, who builds."""
    where = f"PostgreSQL (${POSTGRES_URL_ENV})" if launch.storage == "postgres" else "SQLite"
    builders = (
        "its daemon also materializes stale assets by itself, like `kb refresh` "
        "(`kb ui --automation off` leaves building to `kb refresh`)"
        if ui_automation(launch.env)
        else "automation off: only `kb refresh` builds; the UI shows what is stale"
    )
    return (
        f"Dagster UI on http://{host}:{port} — instance {launch.home} ({where}); "
        f"stop it with Ctrl-C or kill <pid>\n"
        f"lineage, every group expanded: {lineage_url(host, port)}\n"
        f"{builders}"
    )
