"""The private domain `finance` (team `fin`), holding every asset whose id starts with
`fin.`, and the check that an answer holds nothing of its assets."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

# What the `fin.` assets the tests write are called, and what their edges hold.
SECRETS = ("fin.secret", "fin.report", "Secret ledger", "Report ledger", "salary", "bonus")


@pytest.fixture
def finance(admin: httpx.Client) -> None:
    assert admin.put("/teams/fin", json={"display_name": "Finance"}).status_code == 201
    domain = {
        "owner_team": "fin",
        "private": True,
        "rules": [{"kind": "namespace", "value": "fin."}],
    }
    answer = admin.put("/domains/finance", json=domain)
    assert answer.status_code == 201, answer.text


def unleaked(answer: httpx.Response) -> dict[str, Any]:
    """The answer's body, asserted to hold nothing of the hidden assets."""
    assert answer.status_code == 200, answer.text
    for secret in SECRETS:
        assert secret not in answer.text, secret
    body: dict[str, Any] = answer.json()
    return body
