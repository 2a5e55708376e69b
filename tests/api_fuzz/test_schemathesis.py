"""Schemathesis against the live service on a real Neo4j: does the service do what
its OpenAPI document says, and does the document say what the service does?

The `st run` command line drives it, with its coverage, fuzzing and stateful phases
and every default check (schemathesis.toml beside this file lists the few narrow
exceptions and why). It runs as its own admin token, made for the run. Bounded:
a fixed number of examples per operation, one seed, and a deadline for the whole
run; GOVERNANCE_FUZZ_EXAMPLES, GOVERNANCE_FUZZ_SEED and GOVERNANCE_FUZZ_DEADLINE_S
change them (`make fuzz-api`).
"""

from __future__ import annotations

import os
import subprocess
import sys
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
DEADLINE_S = float(os.environ.get("GOVERNANCE_FUZZ_DEADLINE_S", "600"))


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
    try:
        run = subprocess.run(
            command,
            cwd=ROOT,  # where the hooks module (tests.api_fuzz.hooks) imports from
            # schemathesis.toml and hooks.py read them
            env={**os.environ, "GOVERNANCE_FUZZ_TOKEN": token, "GOVERNANCE_FUZZ_URL": live.url},
            capture_output=True,
            text=True,
            timeout=DEADLINE_S,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or ""
        partial = out.decode(errors="replace") if isinstance(out, bytes) else out
        pytest.fail(f"schemathesis ran past {DEADLINE_S:.0f} s:\n{partial[-30_000:]}")
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / "st-run.txt").write_text(run.stdout + run.stderr)
    summary = run.stdout[run.stdout.rfind("SUMMARY") - 40 :] if "SUMMARY" in run.stdout else ""
    print(summary)
    assert run.returncode == 0, (
        f"{run.stdout[-30_000:]}\n{run.stderr[-5_000:]}\n(all of it: {REPORTS / 'st-run.txt'})"
    )
