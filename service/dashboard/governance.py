"""/policies and /quality: what is broken, with links to the assets concerned."""

from __future__ import annotations

from collections import defaultdict

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.dashboard.render import html, page_route
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.quality import STATUS_OF_RESULT
from service.routing import signed_in
from service.store import dashboard as dashboard_store
from service.store import policies as policy_store
from service.store import quality as quality_store
from service.store.sessions import Session

SHOWN = 500
RULE_STATUSES = ("unknown", *STATUS_OF_RESULT.values())


async def policies(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    listed = await policy_store.page(graph, None, None, "", SHOWN)
    by_policy = defaultdict(list)
    readable = domain_rules.readable_private(session.principal)
    violations = await dashboard_store.open_violations(graph, None, SHOWN, readable)
    for violation in violations:
        by_policy[violation.policy_id].append(violation)
    context = {
        "title": "Policies",
        "section": "policies",
        "policies": listed,
        "violations": by_policy,
        "names": await dashboard_store.asset_names(graph, (v.asset_id for v in violations)),
    }
    return html(request, "policies.html", context, session)


async def quality(request: Request, session: Session) -> Response:
    status = request.query_params.get("status") or None
    if status not in (None, *RULE_STATUSES):
        status = None
    graph = deps.graph(request)
    readable = domain_rules.readable_private(session.principal)
    rules = await quality_store.page(graph, None, status, None, "", SHOWN, readable)
    context = {
        "title": "Quality",
        "section": "quality",
        "rules": sorted(rules, key=lambda r: (r.status not in ("failing", "error"), r.id)),
        "names": await dashboard_store.asset_names(graph, (r.asset_id for r in rules)),
        "status": status or "",
        "statuses": RULE_STATUSES,
        "shown": SHOWN,
    }
    return html(request, "quality.html", context, session)


routes = [
    page_route(
        "/policies", policies, methods=["GET"], name="policies_page", policy=signed_in(Scope.READ)
    ),
    page_route(
        "/quality", quality, methods=["GET"], name="quality_page", policy=signed_in(Scope.READ)
    ),
]
