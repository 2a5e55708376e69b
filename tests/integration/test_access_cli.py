"""`governance team ...` and `governance domain ...` straight on the database: the
same rules as the API, and the assets placed before the command returns."""

from __future__ import annotations

import httpx

from tests.support.cli import governance
from tests.support.dashboard import make_user
from tests.support.neo4j_server import Neo4jTarget


def test_the_cli_manages_teams_and_domains(neo4j_target: Neo4jTarget, admin: httpx.Client) -> None:
    make_user(admin, "ada", "viewer")
    admin.put("/assets/fin.ledger", json={"name": "ledger", "type": "table"}).raise_for_status()
    made = governance(neo4j_target, "team", "put", "finance", "--idp-group", "fin-staff", stdin="")
    assert made.returncode == 0, made.stderr
    assert "created team finance" in made.stdout
    joined = governance(
        neo4j_target, "team", "add-member", "finance", "--username", "ada", stdin=""
    )
    assert joined.returncode == 0, joined.stderr
    domain = governance(
        neo4j_target,
        "domain",
        "put",
        "money",
        "--owner-team",
        "finance",
        "--rule",
        "namespace=fin.",
        stdin="",
    )
    assert domain.returncode == 0, domain.stderr
    assert "created domain money: 1 assets" in domain.stdout
    assert admin.get("/assets/fin.ledger").json()["domain"] == "money"
    unknown = governance(neo4j_target, "domain", "put", "x", "--owner-team", "ghosts", stdin="")
    assert (unknown.returncode, admin.get("/domains/x").status_code) == (1, 404)
    assert "ghosts" in unknown.stderr
    bad_rule = governance(
        neo4j_target, "domain", "put", "x", "--owner-team", "finance", "--rule", "tag", stdin=""
    )
    assert bad_rule.returncode == 1
    assert "KIND=VALUE" in bad_rule.stderr
    deleted = governance(neo4j_target, "domain", "delete", "money", stdin="")
    assert deleted.returncode == 0, deleted.stderr
    assert admin.get("/assets/fin.ledger").json()["domain"] is None
    listed = governance(neo4j_target, "team", "list", stdin="")
    assert "finance\tfin-staff\t1 members" in listed.stdout
