"""Each route's policy, declared on the route itself: who may call it (nobody in
particular, a bearer token or a dashboard session, and the scope it needs), the
body size it takes, and whether a POST's answer is kept for an `Idempotency-Key`
repeat.

    Route("/api/v1/assets", create_asset, methods=["POST"], name="create_asset",
          policy=bearer(Scope.WRITE, replay=Replay.KEPT))

Middleware runs before the router, so `Policies` matches a request the way the
router will (the first route that matches path and method) and
`RoutePolicyMiddleware` leaves the answer in the request's state for the
authentication, body-limit and idempotency middleware; the OpenAPI builder reads
the same declarations. A request no route takes (a 404 or a 405) gets the one
`unrouted` policy the app declares. A route without a policy, or with one that
contradicts its method, stops start-up; a route the router reaches under a policy
other than its own (the two matches disagreeing) refuses to run rather than run
unguarded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from starlette import routing
from starlette._utils import get_route_path  # what Route.matches reads, so both see one path
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as AsgiScope

from service.domain.access.scopes import Scope

STATE_KEY = "route_policy"


class Access(Enum):
    PUBLIC = "public"
    TOKEN = "token"  # noqa: S105 (a kind of credential, not one)
    SESSION = "session"


class Body(Enum):
    """Which configured ceiling a request body is held to."""

    STANDARD = "standard"  # GOVERNANCE_MAX_BODY_BYTES
    MANIFEST = "manifest"  # GOVERNANCE_MAX_MANIFEST_BYTES: dbt artifacts


class Replay(Enum):
    """What an `Idempotency-Key` does on a POST taken with a token."""

    NONE = "none"  # not such a POST: the header has no meaning here
    KEPT = "kept"  # a repeat with the same key and body gets the first answer again
    SECRET = "secret"  # noqa: S105 (the answer holds a secret shown once: never kept)
    READ_ONLY = "read-only"  # it only reads: a repeat is harmless, and nothing is kept


class PolicyError(RuntimeError):
    """A route without a policy, or with one that contradicts itself or its method."""


@dataclass(frozen=True)
class Policy:
    access: Access
    scope: Scope | None = None
    body: Body = Body.STANDARD
    replay: Replay = Replay.NONE
    # The handler's own statement re-checks the token (`lineage.traverse`), so a
    # process that already knows the token skips the separate look-up: one round trip
    # on the hot path, and a token revoked through any process is still refused at
    # once. Only for read routes, where every valid token holds the scope needed.
    rechecked: bool = False
    # The handler checks the caller's role in each asset's domain itself
    # (`domain_rules`), so the token's scope capped by the user's best role anywhere
    # admits it; every other route needs the scope the global role allows.
    per_domain: bool = False

    def __post_init__(self) -> None:
        if (self.access is Access.PUBLIC) != (self.scope is None):
            raise PolicyError(f"{self.access.value} access and scope {self.scope} disagree")
        if self.replay is not Replay.NONE and self.access is not Access.TOKEN:
            raise PolicyError("only token routes keep answers for an Idempotency-Key")
        if self.rechecked and (self.access is not Access.TOKEN or self.scope is not Scope.READ):
            raise PolicyError("only read routes taken with a token re-check it in their statement")

    @property
    def needs(self) -> Scope:
        """The scope a caller must hold; public routes have none to ask."""
        if self.scope is None:
            raise PolicyError("a public route needs no scope")
        return self.scope

    def label(self) -> str:
        """`public`, `token:write`, `session:admin`: how listings show who may call."""
        if self.scope is None:
            return self.access.value
        return f"{self.access.value}:{self.scope.label}"


PUBLIC = Policy(Access.PUBLIC)


def bearer(
    scope: Scope,
    *,
    body: Body = Body.STANDARD,
    replay: Replay = Replay.NONE,
    rechecked: bool = False,
    per_domain: bool = False,
) -> Policy:
    """An API route: a bearer token holding `scope`."""
    return Policy(Access.TOKEN, scope, body, replay, rechecked, per_domain)


def signed_in(scope: Scope, *, body: Body = Body.STANDARD, per_domain: bool = False) -> Policy:
    """A dashboard route: a session whose user's role reaches `scope` (with `per_domain`,
    their best role anywhere: the handler checks each asset's domain itself)."""
    return Policy(Access.SESSION, scope, body, per_domain=per_domain)


class Route(routing.Route):
    """Starlette's `Route` with the policy it is served under."""

    def __init__(
        self,
        path: str,
        endpoint: Callable[..., Any],
        *,
        methods: list[str],
        name: str,
        policy: Policy,
        include_in_schema: bool = True,
    ) -> None:
        super().__init__(
            path, endpoint, methods=methods, name=name, include_in_schema=include_in_schema
        )
        self.policy = policy
        # What a 405 answers in `Allow`: widened by `Policies` to every method of every
        # route at this path, as one route per method would otherwise name only its own.
        self.allow: frozenset[str] = frozenset(self.methods or ())

    async def handle(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        """Fail closed: a request the middleware judged under another policy never runs."""
        taken = scope["type"] == "http" and scope["method"] in (self.methods or ())
        if scope["type"] == "http" and not taken and self.methods:
            raise HTTPException(405, headers={"Allow": ", ".join(sorted(self.allow))})
        if taken and policy_of(scope) != self.policy:
            raise PolicyError(f"route {self.name} reached under another route's policy")
        await super().handle(scope, receive, send)


class Mount(routing.Mount):
    """Starlette's `Mount` with one policy for everything under it."""

    def __init__(self, path: str, app: ASGIApp, *, name: str, policy: Policy) -> None:
        super().__init__(path, app=app, name=name)
        self.policy = policy


def declared(route: routing.BaseRoute) -> Policy:
    """The route's policy, checked against its methods; `PolicyError` otherwise."""
    policy = getattr(route, "policy", None)
    where = f"{getattr(route, 'name', None)} ({getattr(route, 'path', route)})"
    if not isinstance(policy, Policy):
        raise PolicyError(f"route {where} declares no policy: build it with service.routing")
    methods = getattr(route, "methods", None) or set()
    takes_post = policy.access is Access.TOKEN and "POST" in methods
    if takes_post and policy.replay is Replay.NONE:
        raise PolicyError(f"POST route {where} must say what an Idempotency-Key does")
    if not takes_post and policy.replay is not Replay.NONE:
        raise PolicyError(f"route {where} takes no POST with a token, so nothing replays")
    return policy


class Policies:
    """Every route's policy, and the one for requests no route takes."""

    def __init__(self, routes: Iterable[routing.BaseRoute], unrouted: Policy) -> None:
        self._routes = [(route, declared(route)) for route in routes]
        _share_allow([route for route, _ in self._routes])
        # The literal start of each route's path: a cheap test before its regex.
        self._prefixes = [_literal_prefix(route) for route, _ in self._routes]
        self.unrouted = unrouted

    def resolve(self, scope: AsgiScope) -> tuple[routing.BaseRoute | None, Policy]:
        """The route the router will hand this request to, with its policy."""
        path = get_route_path(scope)
        for (route, policy), prefix in zip(self._routes, self._prefixes, strict=True):
            if path.startswith(prefix) and route.matches(scope)[0] is routing.Match.FULL:
                return route, policy
        return None, self.unrouted

    def listing(self) -> Sequence[tuple[str, str, Policy]]:
        """(method, path, policy) for every method of every route, in routing order."""
        rows = []
        for route, policy in self._routes:
            methods = sorted((getattr(route, "methods", None) or {"*"}) - {"HEAD"})
            rows += [(method, str(getattr(route, "path", "")), policy) for method in methods]
        return rows


def _share_allow(routes: Iterable[routing.BaseRoute]) -> None:
    """Give each route the methods of every route at its path, for `Allow` on a 405."""
    by_path: dict[str, set[str]] = {}
    for route in routes:
        if isinstance(route, Route):
            by_path.setdefault(route.path, set()).update(route.methods or ())
    for route in routes:
        if isinstance(route, Route):
            route.allow = frozenset(by_path[route.path])


def _literal_prefix(route: routing.BaseRoute) -> str:
    path = str(getattr(route, "path", ""))
    return path + "/" if isinstance(route, routing.Mount) else path.split("{", 1)[0]


def policy_of(scope: AsgiScope) -> Policy:
    """The policy `RoutePolicyMiddleware` resolved for this request."""
    policy = scope.get("state", {}).get(STATE_KEY)
    if not isinstance(policy, Policy):
        raise PolicyError("no route policy resolved: RoutePolicyMiddleware runs first")
    return policy
