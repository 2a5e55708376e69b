"""/ : counts, failing quality rules, open policy violations and the latest events."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.events import seen_by
from service.dashboard import guard
from service.dashboard.present import subject_asset, summary
from service.dashboard.render import html, page_route
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.routing import signed_in
from service.store import dashboard as store
from service.store.sessions import Session

SHOWN = 10


async def overview(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    readable = domain_rules.readable_private(session.principal)
    latest = await store.latest_events(graph, SHOWN, guard.event_view(session).within(readable))
    events = [seen_by(e, readable) for e in latest]
    failing = await store.failing_rules(graph, SHOWN, readable)
    violations = await store.open_violations(graph, None, SHOWN, readable)
    shown = [r.asset_id for r in failing] + [v.asset_id for v in violations]
    context = {
        "title": "Overview",
        "section": "overview",
        "counts": await store.counts(graph, readable),
        "failing": failing,
        "violations": violations,
        "names": await store.asset_names(graph, shown),
        "events": [(e, summary(e), subject_asset(e)) for e in events],
    }
    return html(request, "overview.html", context, session)


routes = [
    page_route("/", overview, methods=["GET"], name="overview", policy=signed_in(Scope.READ)),
]
