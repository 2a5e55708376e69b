"""The `governance` console command run as a user runs it: a separate process, with
only the environment a test gives it (the test Neo4j's, or none)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.keys import TEST_SECRET_KEY
from tests.support.neo4j_server import Neo4jTarget

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "service"]


def cli_env(target: Neo4jTarget | None = None, **extra: str) -> dict[str, str]:
    """This process's environment without its Neo4j and service settings; with
    `target`, that Neo4j's and this session's secret key; then `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GOVERNANCE_"))}
    if target is not None:
        env |= {
            "NEO4J_URI": target.uri,
            "NEO4J_USERNAME": target.username,
            "NEO4J_PASSWORD": target.password,
            "NEO4J_DATABASE": target.database,
            "GOVERNANCE_SECRET_KEY": TEST_SECRET_KEY,
        }
    return env | extra


def run_cli(
    *args: str, env: dict[str, str], stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def governance(
    target: Neo4jTarget, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """A database command (`token create`, `team put`, ...) against `target`."""
    return run_cli(*args, env=cli_env(target), stdin=stdin)


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The failure as the user sees it: exit status 1, one line on stderr, no traceback."""
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("governance: ")
    return lines[0]
