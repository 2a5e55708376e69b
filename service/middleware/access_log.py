"""One `service.access` log line per request, written when the answer is complete.

The line names the route template, never the raw path (which holds ids and query
strings), and who called by id only: `token_id` for an API token, `user_id` for a
token tied to a user or a dashboard session. No header, cookie, body or query
string is ever read into it.
"""

from __future__ import annotations

import logging
from typing import Any

from service.middleware.exchange import Exchange, Observing

log = logging.getLogger("service.access")


class AccessLogMiddleware(Observing):
    def over(self, exchange: Exchange) -> None:
        line = access_fields(exchange)
        log.info("%s %s %d", line["method"], line["route"], line["status"], extra={"fields": line})


def access_fields(exchange: Exchange) -> dict[str, Any]:
    scope = exchange.scope
    state: dict[str, Any] = scope.get("state", {})
    principal = state.get("principal")
    session = state.get("session")
    user = getattr(session, "user", None)
    client = scope.get("client")
    return {
        "request_id": state.get("request_id"),
        "method": scope["method"],
        "route": exchange.route,
        "status": exchange.status,
        "duration_ms": round(exchange.seconds * 1000, 2),
        "token_id": getattr(principal, "token_id", None),
        "user_id": getattr(principal, "user_id", None) or getattr(user, "id", None),
        "client": client[0] if client else None,
    }
