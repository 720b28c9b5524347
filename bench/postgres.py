"""A throwaway PostgreSQL server on loopback: Debian's `postgresql` in a temporary folder.

Used by the scale-out test, the soak bench and the team docs' measurements, the way
bench/cluster.py runs Redis: `initdb` into a fresh folder, `postgres` on a free loopback
port (trust authentication, loopback only), one database, stopped with its process group
and the folder removed on exit. PostgreSQL refuses to run as root: as root the server runs
as the `postgres` user Debian's package creates (`setpriv`), in a folder that user owns.

    with PostgresServer() as pg:
        env = {"KB_POSTGRES_URL": pg.url}   # postgresql+psycopg2://kb@127.0.0.1:<port>/kb
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = DATABASE = "kb"


def _binary(name: str) -> str | None:
    """Debian keeps the server programs out of PATH, under /usr/lib/postgresql/<v>/bin."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    return found[0] if found else shutil.which(name)


def postgres_available() -> str | None:
    """Why a PostgreSQL server cannot be started here, or None."""
    if not (_binary("initdb") and _binary("postgres")):
        return "PostgreSQL server programs not installed (Debian package `postgresql`)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no `postgres` user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="kb-postgres-"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return self.url_of(DATABASE)

    def url_of(self, database: str) -> str:
        return f"postgresql+psycopg2://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """Create one more (empty) database on this server; its URL."""
        import psycopg2

        with contextlib.closing(psycopg2.connect(self._dsn("postgres"))) as conn:
            conn.autocommit = True
            conn.cursor().execute(f"CREATE DATABASE {name}")
        return self.url_of(name)

    def _as_server_user(self) -> list[str]:
        if os.geteuid() != 0:
            return []
        user = pwd.getpwnam("postgres")
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups"]

    def __enter__(self) -> PostgresServer:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, timeout: float = 60.0) -> None:
        if why := postgres_available():
            raise RuntimeError(why)
        prefix = self._as_server_user()
        subprocess.run(
            [*prefix, _binary("initdb"), "-D", str(self.data), "-U", USER, "--auth=trust"]
            + ["--no-sync", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True,
            capture_output=True,
        )
        log = open(self.log, "ab")  # noqa: SIM115 — closed below, the server keeps its copy
        self.proc = subprocess.Popen(
            [*prefix, _binary("postgres"), "-D", str(self.data), "-p", str(self.port)]
            + ["-h", "127.0.0.1", "-k", str(self.folder), "-c", "max_connections=200"]
            # a throwaway server: no fsync (whatever it holds is rebuilt by the next run)
            + ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self._accepts("postgres"):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"postgres did not start (log: {self.log})")
            time.sleep(0.2)
        self.new_database(DATABASE)

    def _dsn(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} user={USER} dbname={database}"

    def _accepts(self, database: str) -> bool:
        import psycopg2

        try:
            psycopg2.connect(self._dsn(database), connect_timeout=2).close()
            return True
        except psycopg2.OperationalError:
            return False

    def close(self) -> None:
        """Fast shutdown (SIGINT) of the server's group, SIGKILL after 20 s; the folder goes."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            self.proc = None
        shutil.rmtree(self.folder, ignore_errors=True)
