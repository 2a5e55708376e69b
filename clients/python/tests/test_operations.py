"""operations.json names, for every operation of the service, the member of the
client that performs it. Each name must resolve to a method of both clients, so
the file cannot promise what does not exist."""

from __future__ import annotations

import inspect
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

import governance_client
from governance_client import AsyncClient, Client
from governance_client._base import USER_AGENT

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
    assert len(OPERATIONS) == 78
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


UNPAGED = ("teams", "domains")


def _resources(client: Client | AsyncClient) -> dict[str, object]:
    return {name: value for name, value in vars(client).items() if not name.startswith("_")}


@pytest.mark.parametrize("make", [Client, AsyncClient], ids=["Client", "AsyncClient"])
def test_every_list_has_an_iterator_taking_the_same_arguments(make: Any) -> None:
    """One paging shape: ``list[_x]`` answers one page, ``iter[_x]`` every item from
    there on, both with ``limit`` (the page size) and ``cursor``."""
    client = make(base_url="http://gov.test", token="t")
    pairs = [
        (
            f"{name}.{member}",
            getattr(resource, member),
            getattr(resource, "iter" + member[4:], None),
        )
        for name, resource in _resources(client).items()
        if name not in UNPAGED
        for member in dir(resource)
        if member == "list" or member.startswith("list_")
    ]
    assert len(pairs) == 12  # assets, asset history, edges, events, webhooks, deliveries,
    # policies, violations, quality rules, results, tokens, users
    for name, lister, iterator in pairs:
        assert iterator is not None, f"{name} has no iterator twin"
        listed = list(inspect.signature(lister).parameters)
        assert list(inspect.signature(iterator).parameters) == listed, name
        assert {"limit", "cursor", "options"} <= set(listed), name
        assert "page_size" not in listed


@pytest.mark.parametrize("make", [Client, AsyncClient], ids=["Client", "AsyncClient"])
def test_the_unpaged_collections_answer_everything_at_once(make: Any) -> None:
    """Teams and domains come whole in one answer (``items``, no cursor): no ``limit``,
    no ``cursor``, no iterator pretending to page."""
    client = make(base_url="http://gov.test", token="t")
    for name in UNPAGED:
        resource = getattr(client, name)
        assert list(inspect.signature(resource.list).parameters) == ["options"], name
        assert not hasattr(resource, "iter"), name


def test_the_version_is_the_project_s_and_the_user_agent_says_it() -> None:
    project = tomllib.loads((OPERATIONS_FILE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    version = project["project"]["version"]
    assert governance_client.__version__ == version
    assert f"governance-client-python/{version}" == USER_AGENT
