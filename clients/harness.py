"""Runs each client library's tests against a real service on a real Neo4j.

Starts (or reuses) the test Neo4j, runs `governance serve` on a loopback port the
kernel picks, makes an admin token with `governance token create`, then runs every
`clients/<lang>/test.sh` with GOVERNANCE_URL and GOVERNANCE_TOKEN set. The service's
own output (its access log included) goes to .cache/logs/clients-service.log (with
the languages in its name when only some run, so two harnesses side by side, each on
its own Neo4j, keep theirs apart), and its last lines are printed when a client fails. Exits non-zero if any client fails,
or if a client library expected here is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.neo4j_server import neo4j_for_tests  # noqa: E402
from tests.support.process import LOGS, ServiceProcess  # noqa: E402

CLIENTS = ("python", "js", "go", "java")
REPORTS = ROOT / ".cache" / "reports"
# The clients' live webhook tests deliver to a receiver on loopback.
SERVICE_ENV = {"GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true"}


def main() -> int:
    wanted = sys.argv[1:] or list(CLIENTS)
    present = [c for c in wanted if (ROOT / "clients" / c / "test.sh").exists()]
    missing = sorted(set(wanted) - set(present))
    try:
        failed = _run(present)
    except RuntimeError as exc:  # the service did not start, or did not stop
        print(f"harness: {exc}", file=sys.stderr)
        return 1
    if missing:
        print(f"client libraries missing: {', '.join(missing)}", file=sys.stderr)
    if failed:
        print(f"client libraries failing: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed or missing else 0


def _run(clients: list[str]) -> list[str]:
    """The clients whose tests fail against one service process."""
    suffix = "" if set(clients) == set(CLIENTS) else "-" + "-".join(clients)
    log = LOGS / f"clients-service{suffix}.log"
    with neo4j_for_tests() as target, ServiceProcess(target, SERVICE_ENV, log).start() as service:
        token = service.admin_token("clients")
        seconds: dict[str, float] = {}
        failed = []
        for client in clients:
            started = time.monotonic()
            if not _passes(client, service.url, token):
                failed.append(client)
            seconds[client] = round(time.monotonic() - started, 1)
        _report(seconds, f"clients{suffix}.json")
        if failed:
            where = log.relative_to(ROOT)
            print(f"== the service's last log lines (all in {where}):", file=sys.stderr)
            print(service.log_tail(), file=sys.stderr)
    return failed


def _report(seconds: dict[str, float], name: str) -> None:
    """Each client's time, for the summary `make test` prints last."""
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / name).write_text(json.dumps(seconds))


def _passes(client: str, url: str, token: str) -> bool:
    print(f"== client: {client}", flush=True)
    env = {**os.environ, "GOVERNANCE_URL": url, "GOVERNANCE_TOKEN": token}
    test = subprocess.run(["bash", "test.sh"], cwd=ROOT / "clients" / client, env=env, check=False)
    return test.returncode == 0


if __name__ == "__main__":
    sys.exit(main())
