"""/events: the latest events, then live ones over Server-Sent Events with the session."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.events import Reader, event_stream, seen_by
from service.dashboard import guard
from service.dashboard.present import subject_asset, summary
from service.dashboard.render import html, page_route
from service.dashboard.session_json import session_json_route
from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.routing import signed_in
from service.store import dashboard as store
from service.store import sessions
from service.store.sessions import Session

SHOWN = 50


async def feed(request: Request, session: Session) -> Response:
    readable = domain_rules.readable_private(session.principal)
    view = guard.event_view(session).within(readable)
    latest = await store.latest_events(deps.graph(request), SHOWN, view)
    events = [seen_by(e, readable) for e in latest]
    context = {
        "title": "Events",
        "section": "events",
        "events": [(e, summary(e), subject_asset(e)) for e in events],
        "after": events[0].seq if events else 0,
    }
    return html(request, "events.html", context, session)


async def stream(request: Request) -> Response:
    """The live feed ends when the session does (sign-out, expiry, user disabled), stops
    showing the audit trail once its user is no longer an admin, and a private domain's
    events once they hold no role in it."""
    session: Session = request.state.session
    graph = deps.graph(request)

    async def standing() -> Principal | None:
        resumed = await sessions.resume(graph, session.secret)
        return resumed.principal if resumed is not None else None

    return await event_stream(
        request,
        Reader(
            admin=guard.can(session, Scope.ADMIN),
            user_id=session.user.id,
            readable=domain_rules.readable_private(session.principal),
            standing=standing,
            ends=lambda _: False,
        ),
    )


routes = [
    page_route("/events", feed, methods=["GET"], name="events_page", policy=signed_in(Scope.READ)),
    session_json_route(
        "/ui/events/stream", stream, name="ui_event_stream", policy=signed_in(Scope.READ)
    ),
]
