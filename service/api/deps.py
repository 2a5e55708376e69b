"""What handlers take from the request: the graph, the settings, the caller."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from service import state
from service.domain.access.browser_marks import BrowserMarks
from service.domain.access.principal import Principal
from service.domain.cursor_seal import CursorSeal
from service.domain.preconditions import Expected, parse_if_match
from service.graph import Graph
from service.params import Paging
from service.settings import Settings


def graph(request: Request) -> Graph:
    return state.of(request).graph


def settings(request: Request) -> Settings:
    return state.of(request).settings


def cursor_seal(request: Request) -> CursorSeal:
    """What seals a traversal cursor's position at a redacted node."""
    keys = settings(request).webhooks.secret_keys
    return CursorSeal([key.get_secret_value() for key in keys])


def browser_marks(request: Request) -> BrowserMarks:
    """What hands out and checks the marks single sign-on starts are counted by."""
    keys = settings(request).webhooks.secret_keys
    return BrowserMarks([key.get_secret_value() for key in keys])


def principal(request: Request) -> Principal:
    p: Principal = request.state.principal
    return p


def token_to_recheck(request: Request) -> str | None:
    """The digest of a token the authentication middleware took from its cache without
    a look-up: the handler's statement must re-check it (see `Policy.rechecked`)."""
    digest: str | None = getattr(request.state, "token_to_recheck", None)
    return digest


def if_match(request: Request) -> Expected | None:
    return parse_if_match(request.headers.get("if-match"))


def actor(request: Request) -> str:
    return principal(request).actor


def paging(request: Request, first: Any = "") -> Paging:
    """The collection's `limit` and `cursor`, within the configured page sizes."""
    limits = settings(request).limits
    return Paging(request, limits.default_page_size, limits.max_page_size, first=first)
