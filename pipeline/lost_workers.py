"""Fail the Celery tasks of a partition run whose worker died, so the run does not hang.

Dagster's Celery executor waits for each step's task result. A worker killed mid-task (its
machine gone, OOM-killed, `kill -9`) never writes one, and with Celery's default early
acknowledgement nobody re-runs the task: the run would stay STARTED forever. This watch,
inside the process that coordinates one partition run, records the tasks that process
publishes (Celery's `after_task_publish` signal), reads each one's state from the result
backend (`task_track_started` makes it STARTED with the worker's name) and pings the
workers; a task STARTED on a worker that has not answered two pings in a row is marked
FAILURE in the result backend (`WorkerLostError`, naming the worker and the task). The
executor then sees the failure like any other: the step fails, the run ends FAILURE, the
refresh reports the partition — and the next refresh, with workers back, builds it.
Public Celery APIs only; nothing of Dagster's is touched.
"""

from __future__ import annotations

import threading

POLL_S = 2.0
MISSED_PINGS = 2  # a worker this many pings silent is gone (a busy one still answers)


class LostWorkerWatch:
    def __init__(self, broker: str, backend: str) -> None:
        from celery import Celery

        # not the current app: the executor's own app publishes the steps
        self.app = Celery("kb-lost-workers", broker=broker, backend=backend, set_as_current=False)
        self.tasks: set[str] = set()
        self.lost: list[str] = []  # one line per task failed here
        self._silent: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kb-lost-workers", daemon=True)

    def __enter__(self) -> LostWorkerWatch:
        from celery.signals import after_task_publish

        after_task_publish.connect(self._published, weak=False)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        from celery.signals import after_task_publish

        self._stop.set()
        self._thread.join(timeout=10)
        after_task_publish.disconnect(self._published)

    def _published(self, sender=None, headers=None, **_kw) -> None:
        task_id = (headers or {}).get("id")
        if task_id:
            self.tasks.add(task_id)

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            try:
                self.check()
            except Exception:  # noqa: BLE001 - a broker hiccup: look again next time
                continue

    def check(self) -> None:
        """One look: fail the STARTED tasks whose worker missed MISSED_PINGS pings."""
        running: dict[str, str] = {}
        for task_id in list(self.tasks):
            result = self.app.AsyncResult(task_id)
            if result.ready():
                self.tasks.discard(task_id)
            elif result.state == "STARTED" and isinstance(result.info, dict):
                running[task_id] = str(result.info.get("hostname", ""))
        if not running:
            return
        alive = {name for reply in self.app.control.ping(timeout=1.0) for name in reply}
        for worker in set(running.values()):
            self._silent[worker] = 0 if worker in alive else self._silent.get(worker, 0) + 1
        for task_id, worker in running.items():
            if self._silent.get(worker, 0) >= MISSED_PINGS:
                self._fail(task_id, worker)

    def _fail(self, task_id: str, worker: str) -> None:
        from billiard.exceptions import WorkerLostError

        line = f"Celery worker {worker} was lost while running task {task_id}"
        self.app.backend.mark_as_failure(task_id, WorkerLostError(line))
        self.tasks.discard(task_id)
        self.lost.append(line)
