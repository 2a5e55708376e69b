"""Schemathesis against the live service on a real Neo4j: does the service do what
its OpenAPI document says, and does the document say what the service does?

The `st run` command line drives it, with its coverage, fuzzing and stateful phases
and every default check (schemathesis.toml beside this file lists the few narrow
exceptions and why). It runs as its own admin token, made for the run. Bounded by
its work, not by the clock: a fixed number of examples per operation and one seed
(GOVERNANCE_FUZZ_EXAMPLES, GOVERNANCE_FUZZ_SEED; `make fuzz-api`). How long that
takes depends on the machine (about 3 minutes on 2 idle cores, over 10 on a busy
one), so no deadline is set on the whole run; a run that has stopped making progress
is caught instead: schemathesis appends an event to its NDJSON report as it goes
(flushed at each), and a report that has not grown for GOVERNANCE_FUZZ_STALL_S
(300 s; the longest gap seen on a loaded machine was 65 s) ends the run as a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from service.settings import Settings
from tests.conftest import make_tokens
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")
REPORTS = ROOT / ".cache" / "fuzz-api"
EXAMPLES = int(os.environ.get("GOVERNANCE_FUZZ_EXAMPLES", "10"))
SEED = int(os.environ.get("GOVERNANCE_FUZZ_SEED", "20261124"))
STALL_S = float(os.environ.get("GOVERNANCE_FUZZ_STALL_S", "300"))
LOOK_EVERY_S = 5.0


@pytest.mark.slow
def test_the_api_keeps_to_its_openapi_document(
    live: LiveServer, clean: None, make_settings: Callable[..., Settings]
) -> None:
    token = make_tokens(make_settings(), schemathesis=["admin"])["schemathesis"]
    st = Path(sys.executable).with_name("st")
    command = [
        str(st),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{live.url}/api/v1/openapi.json",
        "--phases",
        "coverage,fuzzing,stateful",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--report",
        "junit,ndjson",
        "--report-dir",
        str(REPORTS),
    ]
    if REPORTS.exists():
        shutil.rmtree(REPORTS)
    REPORTS.mkdir(parents=True)
    output = REPORTS / "st-run.txt"
    env = {**os.environ, "GOVERNANCE_FUZZ_TOKEN": token, "GOVERNANCE_FUZZ_URL": live.url}
    with output.open("w") as out:
        # cwd: where the hooks module (tests.api_fuzz.hooks) imports from; the
        # environment: what schemathesis.toml and hooks.py read.
        run = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            stalled = _wait_while_progressing(run)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    text = output.read_text()
    assert not stalled, f"schemathesis made no progress for {STALL_S:.0f} s:\n{text[-30_000:]}"
    summary = text[text.rfind("SUMMARY") - 40 :] if "SUMMARY" in text else ""
    print(summary)
    assert run.returncode == 0, f"{text[-30_000:]}\n(all of it: {output})"


def _wait_while_progressing(run: subprocess.Popen[bytes]) -> bool:
    """Wait for `run` to end; True if its NDJSON report stopped growing first."""
    size, grew_at = -1, time.monotonic()
    while True:
        try:
            run.wait(timeout=LOOK_EVERY_S)
            return False
        except subprocess.TimeoutExpired:
            pass
        now_size = sum(report.stat().st_size for report in REPORTS.glob("*.ndjson"))
        if now_size != size:
            size, grew_at = now_size, time.monotonic()
        elif time.monotonic() - grew_at > STALL_S:
            return True
