"""The console command works straight on the database, for bootstrapping."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from service.auth import tokens as token_format
from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import LiveServer


def _cli(target: Neo4jTarget, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "NEO4J_URI": target.uri,
        "NEO4J_USERNAME": target.username,
        "NEO4J_PASSWORD": target.password,
        "NEO4J_DATABASE": target.database,
    }
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_token_create_prints_a_working_token(
    neo4j_target: Neo4jTarget, live: LiveServer, clean: None
) -> None:
    result = _cli(neo4j_target, "token", "create", "--name", "me", "--scope", "admin")
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert token_format.is_well_formed(token)
    headers = {"Authorization": f"Bearer {token}"}
    created = httpx.post(
        live.url + "/api/v1/assets",
        headers=headers,
        json={"id": "cli.asset", "name": "n", "type": "table"},
    )
    assert created.status_code == 201
    assert httpx.get(live.url + "/api/v1/tokens", headers=headers).status_code == 200


def test_bad_arguments_fail_clearly(neo4j_target: Neo4jTarget) -> None:
    result = _cli(neo4j_target, "token", "create", "--name", "me", "--scope", "root")
    assert result.returncode == 2 and "invalid choice" in result.stderr
    assert _cli(neo4j_target).returncode == 2
