"""Fixtures: a scripted client for the unit tests, and for the live tests the
service at GOVERNANCE_URL with GOVERNANCE_TOKEN (admin), which
`clients/harness.py python` provides."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from scripted import Script

from governance_client import Client, NotFoundError


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def make(sleeps: list[float]) -> Iterator[Callable[..., Client]]:
    made: list[Client] = []

    def factory(script: Script, **options: Any) -> Client:
        options.setdefault("base_url", "http://gov.test/api/v1")
        options.setdefault("token", "dgs_secret")
        client = Client(
            transport=httpx.MockTransport(script), sleep=sleeps.append, rand=lambda: 0.5, **options
        )
        made.append(client)
        return client

    yield factory
    for client in made:
        client.close()


# -- live tests ---------------------------------------------------------------------

HOW = "run `.venv/bin/python clients/harness.py python` from the repository root"


@pytest.fixture(scope="module")
def url() -> str:
    missing = [n for n in ("GOVERNANCE_URL", "GOVERNANCE_TOKEN") if not os.environ.get(n)]
    if missing:
        pytest.fail(
            f"live tests need {' and '.join(missing)} in the environment: {HOW}", pytrace=False
        )
    return os.environ["GOVERNANCE_URL"]


@pytest.fixture(scope="module")
def client(url: str) -> Iterator[Client]:
    with Client() as client:
        yield client


@pytest.fixture
def prefix(client: Client) -> Iterator[str]:
    """A unique id prefix; every asset under it is deleted after the test."""
    value = f"pyclient-{uuid.uuid4().hex[:12]}"
    yield value
    for asset in list(client.assets.iter(q=value, limit=500)):
        if asset["id"].startswith(value):
            with contextlib.suppress(NotFoundError):
                client.assets.delete(asset["id"])
