"""Find the route a request is for before any other middleware needs its policy.

The match is the router's own (`Route.matches`), on the path as the client
encoded it (so this runs after `RawPathMiddleware`). The matched route goes in
`scope["route"]` too, as the router would put it, so a request answered before
routing (a 401, a 413) is still counted under its route template.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from service.routing import STATE_KEY, Policies


class RoutePolicyMiddleware:
    def __init__(self, app: ASGIApp, policies: Policies) -> None:
        self.app = app
        self.policies = policies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            route, policy = self.policies.resolve(scope)
            scope.setdefault("state", {})[STATE_KEY] = policy
            if route is not None:
                scope["route"] = route
        await self.app(scope, receive, send)
