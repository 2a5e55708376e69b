"""The service as a separate OS process (`governance serve`): for tests that kill
it, for the client libraries' harness and for the benchmarks.

The listening socket is bound here, to a port the kernel picks, and handed to
`serve --fd`: the port is known before the process starts and nobody can take it
in between. The process's output (access logs included) goes to a log file, whose
tail is shown when the process fails to start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from cryptography.fernet import Fernet

from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import answers, loopback_listener
from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / ".cache" / "logs"
SECRET_KEY = Fernet.generate_key().decode()


class ServiceProcess:
    def __init__(
        self,
        target: Neo4jTarget,
        extra_env: dict[str, str] | None = None,
        log_path: Path | None = None,
    ) -> None:
        self._listener = loopback_listener()
        self.port: int = self._listener.getsockname()[1]
        self.env = {
            # Webhook secrets are sealed at rest: a service on NEO4J_URI needs a key, the
            # same in every process (as in a deployment), so one opens what another sealed.
            "GOVERNANCE_SECRET_KEY": SECRET_KEY,
            **os.environ,
            "NEO4J_URI": target.uri,
            "NEO4J_USERNAME": target.username,
            "NEO4J_PASSWORD": target.password,
            "NEO4J_DATABASE": target.database,
            **(extra_env or {}),
        }
        # One file per pytest-xdist worker: two workers' services never share a log.
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        self.log_path = log_path or LOGS / f"service{'-' + worker if worker else ''}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServiceProcess:
        """Start the process and return once it is ready."""
        fd = self._listener.fileno()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self.log_path.open("wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "service", "serve", "--fd", str(fd)],
                    env=self.env,
                    cwd=ROOT,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    pass_fds=(fd,),
                )
        finally:
            # The process has its own copy; without ours, a dead process's port refuses.
            self._listener.close()
        try:
            eventually(
                self._ready,
                timeout=timeout,
                what=f"service process on {self.url} ready",
                retry_on=(httpx.TransportError,),
            )
        except BaseException:
            self.stop()
            raise
        return self

    def _ready(self) -> bool:
        assert self.process is not None
        code = self.process.poll()
        if code is not None:
            raise RuntimeError(f"the service exited ({code}) while starting:\n{self.log_tail()}")
        return answers(self.url)

    def admin_token(self, name: str) -> str:
        """A new admin token, made as an operator would: `governance token create`."""
        command = ["token", "create", "--name", name, "--scope", "admin"]
        return subprocess.run(
            [sys.executable, "-m", "service", *command],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def kill(self) -> None:
        """kill -9: no shutdown code runs, the lease is not released."""
        if self.process:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self, grace: float = 30.0) -> None:
        """SIGTERM, as a supervisor stops it; killed, and a failure, if that is not
        enough within `grace` seconds."""
        if not self.process or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.kill()
            raise RuntimeError(
                f"the service did not stop within {grace:g}s of SIGTERM and was killed;"
                f" its last log lines ({self.log_path}):\n{self.log_tail()}"
            ) from None

    def __enter__(self) -> ServiceProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
