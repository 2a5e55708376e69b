"""What a `governance` process loads: a command pays only for the libraries it uses.

The Neo4j driver alone is most of a second of CPU at start, and the driver and httpx
pull in NumPy, pandas, Arrow and httpx's own command-line tool whenever those are
installed; the test suites start this command about a hundred times."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import sys
from service.cli import run
sys.argv = ["governance", *sys.argv[1:]]
try:
    status = run()
finally:
    loaded = [m for m in ("neo4j", "numpy", "pandas", "httpx._main") if sys.modules.get(m)]
    print("loaded:", ",".join(loaded), file=sys.stderr)
sys.exit(status)
"""


def _loaded(*args: str, **env: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", REPORT, *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("loaded:"))
    return done.returncode, line.removeprefix("loaded:").strip()


def test_a_file_that_is_not_json_is_explained_without_the_driver(tmp_path: Path) -> None:
    broken = tmp_path / "events.json"
    broken.write_text("[1, 2")
    status, loaded = _loaded(
        "ingest", "openlineage", str(broken), "--url", "http://127.0.0.1:9", "--token", "t"
    )
    assert (status, loaded) == (1, "")


def test_a_database_command_loads_the_driver_but_not_its_optional_libraries() -> None:
    status, loaded = _loaded(
        "token", "create", "--name", "n", "--scope", "read", NEO4J_URI="bolt://127.0.0.1:9"
    )
    assert (status, loaded) == (1, "neo4j")  # nothing listens there


def test_sending_loads_httpx_without_its_command_line_tool(tmp_path: Path) -> None:
    events = tmp_path / "events.json"
    events.write_text(
        '{"eventType": "COMPLETE", "eventTime": "2026-01-01T00:00:00Z",'
        ' "run": {"runId": "0195e4f0-0000-7000-8000-000000000000"},'
        ' "job": {"namespace": "n", "name": "j"}, "inputs": [], "outputs": [],'
        ' "producer": "p", "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json"}'
    )
    status, loaded = _loaded(
        "ingest", "openlineage", str(events), "--url", "http://127.0.0.1:9", "--token", "t"
    )
    assert status == 1  # nothing listens there
    assert loaded == ""
