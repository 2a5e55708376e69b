"""The query language's named fragments (`cypher/query/`), read once, on the first
query compiled; stages one and two fill their slots (`cypher.Query.fill`)."""

from __future__ import annotations

from functools import cache

from service import cypher


@cache
def _queries() -> cypher.Queries:
    return cypher.load()


def fragment(name: str) -> cypher.Query:
    return _queries()[name]
