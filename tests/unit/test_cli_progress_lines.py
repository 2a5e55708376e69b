"""The command line's progress lines for the local Neo4j go to the standard error of
the moment, once however often `main` runs in one process, and give way to the
service's own logging when it is configured afterwards (tests run both in-process)."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import orjson
import pytest

from service import logs
from service.cli import main


@pytest.fixture
def status_args(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    monkeypatch.setenv("GOVERNANCE_LOCALDB_DIR", str(tmp_path))
    monkeypatch.delenv("NEO4J_URI", raising=False)
    return ["neo4j", "status"]


def test_progress_goes_to_the_current_stderr_once(
    status_args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    main(status_args)
    main(status_args)
    logging.getLogger("service.localdb.runtime").info("downloading")
    assert capsys.readouterr().err.count("governance: downloading") == 1


def test_the_services_logging_takes_the_progress_lines_back(status_args: list[str]) -> None:
    main(status_args)
    captured = io.StringIO()
    logs.configure("json", "info", captured)
    logging.getLogger("service.localdb.runtime").info("downloading")
    [line] = [orjson.loads(text) for text in captured.getvalue().splitlines()]
    assert (line["logger"], line["msg"]) == ("service.localdb.runtime", "downloading")
