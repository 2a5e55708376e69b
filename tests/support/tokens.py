"""API tokens made straight in the database, as `governance token create` does.

A `TokenMaker` keeps one connection pool on an event loop of its own thread, so the
tests can make tokens from synchronous code, even where Playwright's sync API already
runs an event loop in the test's thread. Most tests make three tokens; one maker kept
for the session saves each of them a new driver, a connection and a Neo4j sign-in.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from service import cypher
from service.graph import Graph
from service.models.tokens import TokenCreate
from service.settings import Settings
from service.store import tokens as token_store

T = TypeVar("T")


class TokenMaker:
    def __init__(self, settings: Settings) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._graph = self._run(self._connect(settings))

    @staticmethod
    async def _connect(settings: Settings) -> Graph:
        return Graph.connect(settings, cypher.load(), settings.neo4j_uri or "")

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def make(self, **scopes: list[str]) -> dict[str, str]:
        """A token per name, with the scopes given: {name: secret}."""
        return self._run(self._create(scopes))

    def for_user(self, user_id: str, scope: str) -> str:
        """A token tied to a user, as the dashboard makes it: its scope is capped by
        the user's current role."""
        return self._run(self._one(f"{scope}-of-{user_id}", [scope], user_id))

    async def _create(self, scopes: dict[str, list[str]]) -> dict[str, str]:
        return {name: await self._one(name, wanted) for name, wanted in scopes.items()}

    async def _one(self, name: str, scopes: list[str], user_id: str | None = None) -> str:
        body = TokenCreate(name=name, scopes=scopes)  # type: ignore[arg-type]
        made = await token_store.create(self._graph, body, created_by="tests", user_id=user_id)
        return made.token

    def close(self) -> None:
        try:
            self._run(self._graph.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    def __enter__(self) -> TokenMaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def token_of(settings: Settings, user_id: str, scope: str) -> str:
    """A token tied to a user, as the dashboard makes it (`TokenMaker.for_user`)."""
    with TokenMaker(settings) as maker:
        return maker.for_user(user_id, scope)
