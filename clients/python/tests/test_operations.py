"""operations.json names, for every operation of the service, the member of the
client that performs it. Each name must resolve to a method of both clients, so
the file cannot promise what does not exist."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from governance_client import AsyncClient, Client

OPERATIONS_FILE = Path(__file__).resolve().parents[1] / "operations.json"
OPERATIONS: dict[str, Any] = json.loads(OPERATIONS_FILE.read_text(encoding="utf-8"))


def resolve(client: object, path: str) -> Any:
    target = client
    for name in path.split("."):
        assert not name.startswith("_"), f"{path} names a private member"
        target = getattr(target, name)
    return target


def test_the_file_is_a_flat_object_of_member_paths() -> None:
    assert isinstance(OPERATIONS, dict)
    assert len(OPERATIONS) == 61
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in OPERATIONS.items())
    assert len(set(OPERATIONS.values())) == len(OPERATIONS), "two operations share a member"


@pytest.fixture(scope="module", params=[Client, AsyncClient], ids=["Client", "AsyncClient"])
def client(request: pytest.FixtureRequest) -> Client | AsyncClient:
    made: Client | AsyncClient = request.param(base_url="http://gov.test", token="t")
    return made


@pytest.mark.parametrize(("operation", "path"), sorted(OPERATIONS.items()))
def test_each_operation_is_a_method_of_the_client(
    client: Client | AsyncClient, operation: str, path: str
) -> None:
    member = resolve(client, path)
    assert inspect.ismethod(member), f"{operation}: {path} is not a method"
    assert "options" in inspect.signature(member).parameters, f"{path} takes no options="
