"""The service as a separate OS process, for tests that kill it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]


class ServiceProcess:
    def __init__(self, target: Neo4jTarget, extra_env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "NEO4J_URI": target.uri,
            "NEO4J_USERNAME": target.username,
            "NEO4J_PASSWORD": target.password,
            "NEO4J_DATABASE": target.database,
            **(extra_env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServiceProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(self.port)],
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise RuntimeError("service process did not become ready")

    def kill(self) -> None:
        """kill -9: no shutdown code runs, the lease is not released."""
        if self.process:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
