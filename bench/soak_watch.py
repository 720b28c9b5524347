"""What bench/soak.py watches besides the load it makes: the processes of the UI, the
refresh service and the MCP servers (alive, peak memory per role), the runs the instance
recorded (statuses, why failed ones failed), and crashes (`dagster dev`'s log, the
kernel's segfault lines). The load itself is in soak_parts.py.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from bench.soak_parts import ROOT, Part
from tests.support.processes import live_processes


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _role(cmdline: str) -> str | None:
    if "dagster-webserver" in cmdline or "dagster_webserver" in cmdline:
        return "webserver"
    if "dagster-daemon" in cmdline or "dagster._daemon" in cmdline:
        return "daemon"
    if " api grpc" in cmdline or "code-server" in cmdline:
        return "code server"
    if " dev " in cmdline and "dagster" in cmdline:
        return "dagster dev"
    if "serve-refresh" in cmdline:
        return "refresh service"
    if " mcp " in cmdline and "kb" in cmdline:
        return "MCP server"
    return None


class Monitor(Part):
    """Every 2 s: the processes of the UI's group, the refresh service, the MCP servers;
    their peak memory per role, and which roles were seen."""

    def __init__(self, ui_group: int, data: Path) -> None:
        super().__init__()
        self.ui_group, self.data = ui_group, data
        self._peaks: dict[str, float] = {}
        self._seen: dict[str, set[int]] = {}

    def service_pid(self) -> int | None:
        try:
            return int((self.data / "refresh-service.lock").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def sample(self) -> dict[str, list[int]]:
        roles: dict[str, list[int]] = {}
        service = self.service_pid()
        for pid, group, cmdline in live_processes():
            role = _role(cmdline)
            if role is None or (
                group != self.ui_group and role not in ("refresh service", "MCP server")
            ):
                continue
            if role == "refresh service" and pid != service:
                continue
            if role == "MCP server" and str(self.data) not in cmdline:
                continue
            roles.setdefault(role, []).append(pid)
            self._seen.setdefault(role, set()).add(pid)
            total = _rss_mb(pid)
            self._peaks[role] = max(self._peaks.get(role, 0.0), total)
        return roles

    def run(self) -> None:
        while not self._stop.wait(2.0):
            with contextlib.suppress(Exception):
                self.sample()

    def alive(self) -> dict[str, bool]:
        now = self.sample()
        return {
            role: bool(now.get(role))
            for role in ("webserver", "daemon", "refresh service", "MCP server")
        }

    def peaks(self) -> dict[str, float]:
        return {role: round(mb) for role, mb in sorted(self._peaks.items())}


def run_statuses(data: Path, env: dict) -> list[str]:
    """Every run's status in the instance the refreshes and the UI share."""
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from pipeline.instance import open_instance\n"
        "with open_instance(Path(sys.argv[1])) as instance:\n"
        "    print(json.dumps([r.status.value for r in instance.get_runs()]))\n"
    )
    return json.loads(_instance_script(code, env, str(data)))


def failed_runs(data: Path, env: dict, limit: int = 20) -> list[dict]:
    """Why runs ended FAILURE: job, launcher tags and the step/run failure messages."""
    return run_details(data, env, ["FAILURE"], limit)


def unfinished_runs(data: Path, env: dict, limit: int = 20) -> list[dict]:
    """Where runs not finished at the end stand: job, status, tags and their last events."""
    return run_details(
        data, env, ["STARTED", "STARTING", "QUEUED", "NOT_STARTED", "CANCELING"], limit
    )


def run_details(data: Path, env: dict, statuses: list[str], limit: int) -> list[dict]:
    """Runs of `statuses`: job, status, launcher tags, failure messages, last three events."""
    code = (
        "import json, sys, time\n"
        "from pathlib import Path\n"
        "import dagster as dg\n"
        "from pipeline.instance import open_instance\n"
        "out = []\n"
        "wanted = [dg.DagsterRunStatus(s) for s in sys.argv[3].split(',')]\n"
        "with open_instance(Path(sys.argv[1])) as instance:\n"
        "    runs = instance.get_runs(filters=dg.RunsFilter(statuses=wanted))\n"
        "    for run in runs[: int(sys.argv[2])]:\n"
        "        errors, last = [], []\n"
        "        for rec in instance.all_logs(run.run_id):\n"
        "            ev = rec.dagster_event\n"
        "            kind = ev.event_type_value if ev is not None else 'LOG'\n"
        "            last = (last + [f'{kind} {(ev.step_key if ev else None) or \"\"} '\n"
        "                    f'{time.time() - rec.timestamp:.0f}s ago: {(rec.message or \"\")[:160]}'])[-3:]\n"
        "            if ev is None or kind not in ('STEP_FAILURE', 'RUN_FAILURE', 'ENGINE_EVENT'):\n"
        "                continue\n"
        "            err = getattr(ev.event_specific_data, 'error', None)\n"
        "            if kind == 'ENGINE_EVENT' and err is None:\n"
        "                continue\n"
        "            text = err.to_string() if err is not None else (ev.message or '')\n"
        "            errors.append(f'{kind} {ev.step_key or \"\"}: {text[-1500:]}')\n"
        "        tags = {k: v for k, v in run.tags.items() if not k.startswith('.dagster')}\n"
        "        out.append({'run': run.run_id[:8], 'job': run.job_name, 'status': run.status.value,\n"
        "                    'tags': tags, 'errors': errors[-4:], 'last_events': last})\n"
        "print(json.dumps(out))\n"
    )
    try:
        return json.loads(_instance_script(code, env, str(data), str(limit), ",".join(statuses)))
    except RuntimeError as exc:
        return [{"error": str(exc)}]


def _instance_script(code: str, env: dict, *args: str) -> str:
    """The last line a script printed, run against the instance in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-800:])
    return done.stdout.strip().splitlines()[-1]


def ui_crashes(log: Path) -> list[str]:
    """Lines where `dagster dev` says one of its processes ended on its own (a signal)."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return []
    marks = ("shut down unexpectedly", "Segmentation fault", "return code -11")
    return [line.strip()[:300] for line in text.splitlines() if any(m in line for m in marks)]


def kernel_segfaults(since: float) -> list[str] | None:
    """Kernel log lines about segfaults since `since` (epoch seconds); None if unreadable."""
    try:
        done = subprocess.run(
            ["dmesg", "--time-format", "iso"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    found = []
    for line in done.stdout.splitlines():
        if "segfault" not in line:
            continue
        with contextlib.suppress(ValueError):
            when = datetime.fromisoformat(line.split(" ", 1)[0].replace(",", "."))
            if when.timestamp() >= since:
                found.append(line[:300])
    return found
