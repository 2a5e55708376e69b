"""The private ledger the provenance tests read around: `vaultdom` is private (team
`vaultkeepers`) and holds every asset whose id starts with `vaultasset`; its ledger has
the tagged column `sealedcol` and the owner `ghost@...`. An outsider (a global viewer in
no team) reads around it, and `unleaked` checks that an answer names none of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.support.dashboard import make_user
from tests.support.tokens import token_of
from tests.support.writes import edge, put_asset

PRIVATE = "vaultasset.ledger"
PRIVATE_NAME = "Ledger of sealed balances"
SECRETS = ("vaultasset", "vaultdom", PRIVATE_NAME, "sealedcol", "ghost@vault.example")


@dataclass
class Readers:
    outsider: httpx.Client  # a global viewer with no team
    username: str  # the outsider's, for the dashboard


@pytest.fixture
def readers(
    admin: httpx.Client,
    make_settings: Callable[..., Settings],
    client_of: Callable[[str], httpx.Client],
) -> Readers:
    assert admin.put("/teams/vaultkeepers", json={"display_name": "Keepers"}).status_code == 201
    rules = [{"kind": "namespace", "value": "vaultasset"}]
    domain = {"owner_team": "vaultkeepers", "private": True, "rules": rules}
    answer = admin.put("/domains/vaultdom", json=domain)
    assert answer.status_code == 201, answer.text
    outsider = make_user(admin, "outsider", "viewer")
    token = token_of(make_settings(), outsider["id"], "read")
    return Readers(client_of(token), "outsider")


def column_mapping(admin: httpx.Client, source: str, target: str, column: str, into: str) -> None:
    """The edge `source` -> `target` mapping `column` to `into`, in a bulk write."""
    row = {"source": source, "target": target, "columns": [{"source": column, "target": into}]}
    answer = admin.post("/lineage/bulk", json=[row])
    assert answer.status_code == 200, answer.text


def unleaked(answer: httpx.Response) -> Any:
    """The answer's body, asserted to hold nothing of the hidden assets."""
    assert answer.status_code == 200, answer.text
    for secret in SECRETS:
        assert secret not in answer.text, secret
    return answer.json() if answer.headers["content-type"].endswith("json") else answer.text


@pytest.fixture
def tagged(admin: httpx.Client, readers: Readers) -> None:
    """The private ledger's `sealedcol` holds `pii`; the public `open.stage.email` inherits
    it along one identity mapping, `open.stage` is marked public, and `open.feed` flows
    into the ledger, which is marked restricted."""
    columns = [{"name": "sealedcol", "tags": ["pii"]}]
    put_asset(admin, PRIVATE, PRIVATE_NAME, tags=["pii", "restricted"], columns=columns)
    put_asset(admin, "open.stage", "Stage", tags=["public"], columns=[{"name": "email"}])
    put_asset(admin, "open.feed", "Feed")
    assert admin.get(f"/assets/{PRIVATE}").json()["domain"] == "vaultdom"
    column_mapping(admin, PRIVATE, "open.stage", "sealedcol", "email")
    edge(admin, "open.feed", PRIVATE)
