"""``LocalNeo4j``: one named, persistent Neo4j instance under a cache directory.

Ties the other modules together: provision the runtime, render the conf,
install the password, launch the detached JVM, wait for Bolt, and later find
and stop it again from another process.  An instance lock serialises
start/stop across processes (CLI and test workers alike).
"""

from __future__ import annotations

import logging
import os
import re
import time
from contextlib import AbstractContextManager
from pathlib import Path

from . import process
from .config import ServerSettings, jvm_options, render_neo4j_conf
from .errors import LocalNeo4jError
from .info import ConnectionInfo, Status
from .layout import InstanceLayout
from .locking import file_lock
from .logs import instance_log_excerpt
from .password import (
    USERNAME,
    generate_password,
    load_password,
    save_password,
    set_initial_password,
    write_private,
)
from .readiness import AuthenticationRejected, ServerExited, port_accepts, wait_until_ready
from .runtime import SERVER_MAIN_CLASS, ensure_runtime
from .sizing import default_heap, default_pagecache, machine_ram
from .toolchain import require_java

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_STOP_AFTER_FAILED_START_SECONDS = 30.0

log = logging.getLogger(__name__)


class LocalNeo4j:
    """A Neo4j Community server for development or tests, kept in ``cache_dir``.

    Data and password persist across stop/start; several instances with
    different names and ports can run side by side on one runtime.
    """

    def __init__(
        self,
        cache_dir: Path,
        name: str = "dev",
        bolt_port: int = 17687,
        heap: str | None = None,
        pagecache: str | None = None,
        stable_plans: bool = False,
        lean_inlining: bool = False,
    ) -> None:
        """``heap`` and ``pagecache`` left None are sized from the machine's RAM
        (see :mod:`.sizing`); ``stable_plans`` keeps Cypher plans however the graph's
        statistics move, one per parameter types whatever their sizes, and
        ``lean_inlining`` spends less of the JVM's CPU compiling (both for test instances:
        see :class:`.config.ServerSettings`)."""
        if not _NAME_RE.fullmatch(name):
            raise LocalNeo4jError(
                f"invalid instance name {name!r}: use letters, digits, '.', '_' or '-'"
            )
        self.cache_dir = Path(cache_dir).expanduser().resolve()
        self.name = name
        ram = machine_ram() if heap is None or pagecache is None else 0
        self.settings = ServerSettings(
            bolt_port=bolt_port,
            heap=heap or default_heap(ram),
            pagecache=pagecache or default_pagecache(ram),
            stable_plans=stable_plans,
            lean_inlining=lean_inlining,
        )
        self.layout = InstanceLayout(self.cache_dir / "instances" / name)

    def __repr__(self) -> str:
        return f"LocalNeo4j(name={self.name!r}, uri={self.uri!r}, home={self.layout.home})"

    @property
    def uri(self) -> str:
        return self.settings.bolt_uri

    # -- queries -----------------------------------------------------------

    def status(self) -> Status:
        """Whether this instance's server process is alive (a read-only check)."""
        pid = self._server_pid()
        return Status(running=pid is not None, pid=pid, uri=self.uri, home=self.layout.home)

    def connection(self) -> ConnectionInfo:
        """Credentials for this instance; needs a password saved by a previous ``start``."""
        password = load_password(self.layout.password_file)
        if password is None:
            raise LocalNeo4jError(
                f"no saved password for Neo4j instance {self.name!r} "
                f"({self.layout.password_file}); start the instance first"
            )
        return ConnectionInfo(uri=self.uri, username=USERNAME, password=password)

    # -- lifecycle -----------------------------------------------------------

    def start(self, timeout: float = 180.0) -> ConnectionInfo:
        """Start the server (downloading the runtime on first use) and wait for Bolt.

        Idempotent: if the instance is already running it is only checked.
        ``timeout`` bounds waiting for the server (and for a concurrent
        start/stop by another process), not the one-off jar download.
        """
        self.layout.home.mkdir(mode=0o700, parents=True, exist_ok=True)
        with self._lock(timeout, "starting"):
            pid = self._server_pid()
            if pid is not None:
                self._check_same_settings(pid)
                info = self.connection()
                self._await_ready(info, pid, time.monotonic() + timeout, launched=False)
                return info
            java = require_java()  # checked first: it is cheap, the download is not
            lib_dir = ensure_runtime(self.cache_dir)
            self._prepare_files()
            if port_accepts(self.settings.bolt_port):
                raise LocalNeo4jError(
                    f"cannot start Neo4j instance {self.name!r}: port "
                    f"{self.settings.bolt_port} on 127.0.0.1 is already in use by another "
                    "process; stop it or choose another bolt_port"
                )
            info = self._ensure_password(java, lib_dir)
            command = [
                str(java),
                *jvm_options(self.layout, self.settings),
                "-cp",
                str(lib_dir / "*"),
                SERVER_MAIN_CLASS,
                f"--home-dir={self.layout.home}",
                f"--config-dir={self.layout.conf_dir}",
            ]
            env = {k: v for k, v in os.environ.items() if k not in ("NEO4J_HOME", "NEO4J_CONF")}
            started = time.monotonic()
            pid = process.spawn_detached(command, self.layout.home, env, self.layout.stdout_log)
            process.write_pid(self.layout.pid_file, pid)
            log.info("Neo4j instance %r starting (pid %d) on %s", self.name, pid, self.uri)
            self._await_ready(info, pid, started + timeout, launched=True)
            log.info("Neo4j instance %r ready in %.1fs", self.name, time.monotonic() - started)
            return info

    def stop(self, timeout: float = 60.0) -> None:
        """Shut the server down cleanly (SIGTERM), killing it after ``timeout``; idempotent."""
        if not self.layout.home.exists():
            return
        with self._lock(timeout, "stopping"):
            pid = self._server_pid()
            if pid is not None:
                log.info("stopping Neo4j instance %r (pid %d)", self.name, pid)
                process.terminate(pid, SERVER_MAIN_CLASS, self.layout.home, timeout)
            self.layout.pid_file.unlink(missing_ok=True)

    # -- internals -----------------------------------------------------------

    def _lock(self, timeout: float, action: str) -> AbstractContextManager[None]:
        return file_lock(self.layout.lock_file, timeout, f"{action} Neo4j instance {self.name!r}")

    def _server_pid(self) -> int | None:
        pid = process.read_pid(self.layout.pid_file)
        if pid is None or not process.is_server_process(pid, SERVER_MAIN_CLASS, self.layout.home):
            return None
        return pid

    def _is_alive(self, pid: int) -> bool:
        return process.is_server_process(pid, SERVER_MAIN_CLASS, self.layout.home)

    def _prepare_files(self) -> None:
        self.layout.pid_file.unlink(missing_ok=True)  # stale: no live server owns it
        for directory in self.layout.directories():
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_private(self.layout.conf_file, render_neo4j_conf(self.layout, self.settings))

    def _check_same_settings(self, pid: int) -> None:
        """Refuse to hand out a URI for settings the running server does not have."""
        wanted = render_neo4j_conf(self.layout, self.settings)
        try:
            current = self.layout.conf_file.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != wanted:
            raise LocalNeo4jError(
                f"Neo4j instance {self.name!r} is already running (pid {pid}) with a different "
                f"configuration (port or memory) than requested; stop it first"
            )

    def _ensure_password(self, java: Path, lib_dir: Path) -> ConnectionInfo:
        """Reuse the saved password; before the first start, create and install one."""
        password = load_password(self.layout.password_file)
        initialised = self.layout.system_db_dir.exists()
        if initialised and password is None:
            raise LocalNeo4jError(
                f"Neo4j instance {self.name!r} has data but its password file "
                f"{self.layout.password_file} is missing; delete {self.layout.home} "
                "to start over with a fresh database"
            )
        if password is None:
            password = generate_password()
            save_password(self.layout.password_file, password)
        if not initialised:
            set_initial_password(java, lib_dir, self.layout, password)
        return ConnectionInfo(uri=self.uri, username=USERNAME, password=password)

    def _await_ready(
        self, info: ConnectionInfo, pid: int, deadline: float, *, launched: bool
    ) -> None:
        """Wait for Bolt; if this call launched the server and it fails, stop it again."""
        try:
            wait_until_ready(
                info, self.settings.bolt_port, deadline, is_alive=lambda: self._is_alive(pid)
            )
        except LocalNeo4jError as exc:
            if launched:
                # Do not leave a half-started server that `status` reports as running.
                try:
                    process.terminate(
                        pid, SERVER_MAIN_CLASS, self.layout.home, _STOP_AFTER_FAILED_START_SECONDS
                    )
                finally:
                    self.layout.pid_file.unlink(missing_ok=True)
            raise self._startup_error(exc, pid) from exc

    def _startup_error(self, exc: LocalNeo4jError, pid: int) -> LocalNeo4jError:
        who = f"Neo4j instance {self.name!r} (pid {pid}, {self.uri})"
        if isinstance(exc, AuthenticationRejected):
            return LocalNeo4jError(
                f"{who} rejected the password saved in {self.layout.password_file} "
                "(was it changed from a client?). Put the current password in that file, "
                f"or delete {self.layout.home} to start over with an empty database."
            )
        what = (
            "exited during startup"
            if isinstance(exc, ServerExited)
            else f"did not become ready: {exc}"
        )
        return LocalNeo4jError(f"{who} {what}.\n{instance_log_excerpt(self.layout)}")
