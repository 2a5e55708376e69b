"""Every operation the running service documents has a counterpart in every client library.

Each client declares, in `clients/<lang>/operations.json`, which of its members
implements each OpenAPI operationId; each client's own unit tests prove by reflection
that those members exist. This test closes the loop from the other side: an endpoint
added to the service without the four clients fails here, and so does a client entry
for an operation the service no longer has.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
LANGUAGES = ("python", "go", "java", "js")


def documented_operations(anonymous: httpx.Client) -> set[str]:
    document = anonymous.get("/openapi.json").json()
    return {op["operationId"] for ops in document["paths"].values() for op in ops.values()}


def declared_operations(language: str) -> dict[str, str]:
    declared: dict[str, str] = json.loads((CLIENTS / language / "operations.json").read_text())
    return declared


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_client_implements_every_documented_operation(
    anonymous: httpx.Client, language: str
) -> None:
    documented = documented_operations(anonymous)
    declared = declared_operations(language)
    assert sorted(documented - set(declared)) == [], f"{language} client lacks these"
    assert sorted(set(declared) - documented) == [], f"{language} client names unknown ones"
    assert all(isinstance(member, str) and member for member in declared.values())
