"""Runs each client library's tests against a real service on a real Neo4j.

Starts (or reuses) the test Neo4j, runs `governance serve` on a free loopback
port, makes an admin token with `governance token create`, then runs every
`clients/<lang>/test.sh` with GOVERNANCE_URL and GOVERNANCE_TOKEN set. Exits
non-zero if any client fails, or if a client library expected here is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.neo4j_server import neo4j_for_tests  # noqa: E402
from tests.support.server import free_port  # noqa: E402

CLIENTS = ("python", "js", "go", "java")


def main() -> int:
    wanted = [c for c in sys.argv[1:]] or list(CLIENTS)
    present = [c for c in wanted if (ROOT / "clients" / c / "test.sh").exists()]
    missing = sorted(set(wanted) - set(present))
    with neo4j_for_tests() as target:
        env = {
            **os.environ,
            "NEO4J_URI": target.uri,
            "NEO4J_USERNAME": target.username,
            "NEO4J_PASSWORD": target.password,
            "NEO4J_DATABASE": target.database,
            # The clients' live webhook tests deliver to a receiver on loopback.
            "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
        }
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(port)], env=env, cwd=ROOT
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_ready(url)
            token = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "service",
                    "token",
                    "create",
                    "--name",
                    "clients",
                    "--scope",
                    "admin",
                ],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            failed = []
            for client in present:
                print(f"== client: {client}", flush=True)
                run_env = {**os.environ, "GOVERNANCE_URL": url, "GOVERNANCE_TOKEN": token}
                code = subprocess.run(
                    ["bash", "test.sh"], cwd=ROOT / "clients" / client, env=run_env, check=False
                ).returncode
                if code != 0:
                    failed.append(client)
        finally:
            server.terminate()
            server.wait(timeout=30)
    if missing:
        print(f"client libraries missing: {', '.join(missing)}", file=sys.stderr)
    if failed:
        print(f"client libraries failing: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed or missing else 0


def _wait_ready(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("service did not become ready")
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
