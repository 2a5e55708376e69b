"""Query-string parameters: typed reads that answer 422 naming the parameter,
and the cursor paging every collection shares."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from service.domain.cursor import decode_cursor, encode_cursor
from service.domain.history import parse_instant
from service.errors import BadRequest, validation_error
from service.http import json_response

T = TypeVar("T")


class Params:
    def __init__(self, request: Request) -> None:
        self._query = request.query_params

    def text(self, name: str, max_length: int = 1024) -> str | None:
        value = self._query.get(name)
        if value is None or value == "":
            return None
        if len(value) > max_length:
            raise validation_error(
                ("query", name), f"{name} is longer than {max_length} characters"
            )
        return value

    def many(self, name: str) -> list[str]:
        return [v for v in self._query.getlist(name) if v != ""]

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        """An integer parameter; absent is `default`, present it must be one (empty
        is not absent: `?limit=` is refused like `?limit=x`)."""
        raw = self._query.get(name)
        if raw is None:
            return default
        return integer_value(raw, ("query", name), low, high)

    def flag(self, name: str) -> bool | None:
        raw = self._query.get(name)
        if raw is None:
            return None
        if raw.lower() in ("true", "1", "yes"):
            return True
        if raw.lower() in ("false", "0", "no"):
            return False
        raise validation_error(("query", name), f"{name} must be true or false", "bool_parsing")

    def instant(self, name: str) -> str | None:
        """An RFC 3339 instant with an offset, as the graph stores instants (UTC,
        milliseconds, `Z`; one in the future is now), or None when absent."""
        raw = self._query.get(name)
        if raw is None:
            return None
        value = parse_instant(raw)
        if value is None:
            raise validation_error(
                ("query", name),
                f"{name} must be an RFC 3339 instant with an offset, e.g. 2026-03-01T10:00:00Z",
                "datetime_parsing",
            )
        return value

    def choice(self, name: str, choices: Sequence[str], default: str) -> str:
        value = self._query.get(name, default)
        if value not in choices:
            raise validation_error(
                ("query", name), f"{name} must be one of {', '.join(choices)}", "enum"
            )
        return value


INT64_MAX = 2**63 - 1  # the largest integer Neo4j holds
# ASCII digits only: `int()` would also take "٣", "1_000" and " 7 ", none of them an
# integer to JSON Schema, and more digits than any bound here could need.
_INTEGER = re.compile(r"-?[0-9]{1,19}")


def integer_value(raw: str, loc: tuple[str, ...], low: int, high: int) -> int:
    """`raw` as an integer within [low, high], or 422 naming `loc`."""
    name = loc[-1]
    if not _INTEGER.fullmatch(raw):
        raise validation_error(loc, f"{name} must be an integer", "int_parsing")
    value = int(raw)
    if not low <= value <= high:
        raise validation_error(loc, f"{name} must be between {low} and {high}", "out_of_range")
    return value


class Paging:
    """Keyset paging: a cursor holds the sort key of the previous page's last item
    (an id, or a list such as [source, target] for edges)."""

    def __init__(
        self, request: Request, default_limit: int, max_limit: int, first: Any = ""
    ) -> None:
        params = Params(request)
        self.request = request
        self.limit = params.integer("limit", default_limit, 1, max_limit)
        cursor = params.text("cursor", 4096)
        self.after: Any = decode_cursor(cursor, ["after"])["after"] if cursor else first
        if type(self.after) is not type(first) or (
            isinstance(first, list) and len(self.after) != len(first)
        ):
            raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")

    @property
    def fetch(self) -> int:
        """One more than a page, to learn whether another page follows."""
        return self.limit + 1

    def respond(
        self, rows: list[T], key: Callable[[T], Any], render: Callable[[T], Any] | None = None
    ) -> Response:
        page = rows[: self.limit]
        next_cursor = self.cursor_after(key(page[-1])) if len(rows) > self.limit else None
        return json_response(
            {"items": [(render or _as_json)(r) for r in page], "next_cursor": next_cursor},
            headers=self.link(next_cursor),
        )

    def cursor_after(self, position: Any) -> str:
        return encode_cursor({"after": position})

    def link(self, next_cursor: str | None) -> dict[str, str]:
        """The `Link: rel="next"` header for a page that has a successor."""
        if not next_cursor:
            return {}
        query = [(k, v) for k, v in self.request.query_params.multi_items() if k != "cursor"]
        query.append(("cursor", next_cursor))
        return {"Link": f'<{self.request.url.path}?{urlencode(query)}>; rel="next"'}


def _as_json(item: Any) -> Any:
    return item.model_dump(mode="json")
