"""Two checkouts run side by side: each keeps its instance in its own folder, and the
development Neo4j's Bolt port is a setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main


def test_neo4j_status_names_the_configured_port(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOVERNANCE_LOCALDB_DIR", str(tmp_path))
    monkeypatch.setenv("GOVERNANCE_NEO4J_BOLT_PORT", "27687")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    assert main(["neo4j", "status"]) == 3  # stopped: nothing was started in tmp_path
    out = capsys.readouterr().out
    assert "bolt://127.0.0.1:27687" in out
    assert str(tmp_path) in out


def test_the_default_port_is_unchanged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GOVERNANCE_LOCALDB_DIR", str(tmp_path))
    monkeypatch.delenv("GOVERNANCE_NEO4J_BOLT_PORT", raising=False)
    main(["neo4j", "status"])
    assert "bolt://127.0.0.1:17687" in capsys.readouterr().out
