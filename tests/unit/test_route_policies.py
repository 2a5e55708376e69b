"""Every route's declared policy, listed so that a change to who may call what,
how large a body it takes or whether its answer is replayed shows up in review.

The middleware and the OpenAPI document read these declarations; the tests below
also show that a route without one cannot start, and that a request meets the
policy of the route the router will give it.
"""

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import Response
from starlette.routing import Route as PlainRoute
from starlette.testclient import TestClient

from service.api import meta
from service.app import create_app
from service.dashboard.render import page_route
from service.domain.access.scopes import Scope
from service.middleware.route_policy import RoutePolicyMiddleware
from service.routing import (
    PUBLIC,
    Access,
    Body,
    Policies,
    Policy,
    PolicyError,
    Replay,
    Route,
    bearer,
    signed_in,
)
from service.settings import Settings

# method, path, who may call (token/session: scope), body ceiling, Idempotency-Key
EXPECTED = """
GET    /api/v1                                                public        standard none
GET    /api/v1/                                               public        standard none
GET    /api/v1/openapi.json                                   public        standard none
GET    /healthz                                               public        standard none
GET    /readyz                                                public        standard none
GET    /metrics                                               public        standard none
GET    /api/v1/assets                                         token:read    standard none
POST   /api/v1/assets                                         token:write   standard kept
GET    /api/v1/assets/{asset_id}/history                      token:read    standard none
GET    /api/v1/assets/{asset_id}/columns                      token:read    standard none
GET    /api/v1/assets/{asset_id:path}                         token:read    standard none
PUT    /api/v1/assets/{asset_id:path}                         token:write   standard none
PATCH  /api/v1/assets/{asset_id:path}                         token:write   standard none
DELETE /api/v1/assets/{asset_id:path}                         token:write   standard none
GET    /api/v1/column-tags/{tag}                              token:read    standard none
PUT    /api/v1/column-tags/{tag}                              token:write   standard none
POST   /api/v1/lineage/manifest                               token:write   manifest kept
POST   /api/v1/impact/manifest                                token:read    manifest read-only
POST   /api/v1/lineage/openlineage                            token:write   standard kept
POST   /api/v1/lineage/sql                                    token:write   standard kept
GET    /api/v1/lineage/{asset_id}/export                      token:read    standard none
POST   /api/v1/lineage                                        token:write   standard kept
POST   /api/v1/lineage/bulk                                   token:write   standard kept
GET    /api/v1/lineage/edges                                  token:read    standard none
DELETE /api/v1/lineage/edges                                  token:write   standard none
GET    /api/v1/lineage/{asset_id}/upstream                    token:read    standard none
GET    /api/v1/lineage/{asset_id}/downstream                  token:read    standard none
GET    /api/v1/lineage/{asset_id}/diff                        token:read    standard none
GET    /api/v1/lineage/{asset_id}/columns/{column}/upstream   token:read    standard none
GET    /api/v1/lineage/{asset_id}/columns/{column}/downstream token:read    standard none
GET    /api/v1/lineage/{asset_id:path}                        token:read    standard none
GET    /api/v1/policies                                       token:read    standard none
POST   /api/v1/policies                                       token:write   standard kept
POST   /api/v1/policies/evaluate                              token:write   standard kept
GET    /api/v1/policies/{policy_id}                           token:read    standard none
PUT    /api/v1/policies/{policy_id}                           token:write   standard none
PATCH  /api/v1/policies/{policy_id}                           token:write   standard none
DELETE /api/v1/policies/{policy_id}                           token:write   standard none
GET    /api/v1/policies/{policy_id}/violations                token:read    standard none
GET    /api/v1/quality/rules                                  token:read    standard none
POST   /api/v1/quality/rules                                  token:write   standard kept
GET    /api/v1/quality/rules/{rule_id}                        token:read    standard none
PUT    /api/v1/quality/rules/{rule_id}                        token:write   standard none
PATCH  /api/v1/quality/rules/{rule_id}                        token:write   standard none
DELETE /api/v1/quality/rules/{rule_id}                        token:write   standard none
POST   /api/v1/quality/rules/{rule_id}/results                token:write   standard kept
GET    /api/v1/quality/rules/{rule_id}/results                token:read    standard none
POST   /api/v1/quality/results/dbt                            token:write   manifest kept
POST   /api/v1/query                                          token:read    standard read-only
POST   /api/v1/query/cypher                                   token:admin   standard read-only
GET    /api/v1/events                                         token:read    standard none
GET    /api/v1/events/stream                                  token:read    standard none
GET    /api/v1/webhooks                                       token:admin   standard none
POST   /api/v1/webhooks                                       token:admin   standard secret
GET    /api/v1/webhooks/{webhook_id}                          token:admin   standard none
PATCH  /api/v1/webhooks/{webhook_id}                          token:admin   standard none
DELETE /api/v1/webhooks/{webhook_id}                          token:admin   standard none
POST   /api/v1/webhooks/{webhook_id}/test                     token:admin   standard kept
GET    /api/v1/webhooks/{webhook_id}/deliveries               token:admin   standard none
GET    /api/v1/tokens                                         token:admin   standard none
POST   /api/v1/tokens                                         token:admin   standard secret
GET    /api/v1/tokens/{token_id}                              token:admin   standard none
DELETE /api/v1/tokens/{token_id}                              token:admin   standard none
GET    /api/v1/users                                          token:admin   standard none
POST   /api/v1/users                                          token:admin   standard kept
GET    /api/v1/users/{user_id}                                token:admin   standard none
PATCH  /api/v1/users/{user_id}                                token:admin   standard none
DELETE /api/v1/users/{user_id}                                token:admin   standard none
GET    /api/v1/me                                             token:read    standard none
GET    /api/v1/teams                                          token:read    standard none
GET    /api/v1/teams/{team_id}                                token:read    standard none
PUT    /api/v1/teams/{team_id}                                token:admin   standard none
DELETE /api/v1/teams/{team_id}                                token:admin   standard none
PUT    /api/v1/teams/{team_id}/members/{user_id}              token:admin   standard none
DELETE /api/v1/teams/{team_id}/members/{user_id}              token:admin   standard none
GET    /api/v1/domains                                        token:read    standard none
GET    /api/v1/domains/{domain_id}                            token:read    standard none
PUT    /api/v1/domains/{domain_id}                            token:admin   standard none
DELETE /api/v1/domains/{domain_id}                            token:admin   standard none
GET    /login                                                 public        standard none
POST   /login                                                 public        standard none
POST   /logout                                                public        standard none
GET    /                                                      session:read  standard none
GET    /assets                                                session:read  standard none
GET    /assets/{asset_id}                                     session:read  standard none
POST   /assets/{asset_id}/edit                                session:write standard none
GET    /assets/{asset_id}/history/export                      session:read  standard none
GET    /assets/{asset_id}/history                             session:read  standard none
GET    /lineage                                               session:read  standard none
GET    /lineage/{asset_id}                                    session:read  standard none
GET    /ui/assets/{asset_id}                                  session:read  standard none
GET    /ui/lineage/{asset_id}                                 session:read  standard none
GET    /ui/lineage/{asset_id}/columns/{column}/upstream       session:read  standard none
GET    /ui/lineage/{asset_id}/columns/{column}/downstream     session:read  standard none
GET    /ui/lineage/{asset_id}/export                          session:read  standard none
GET    /policies                                              session:read  standard none
GET    /quality                                               session:read  standard none
GET    /events                                                session:read  standard none
GET    /ui/events/stream                                      session:read  standard none
GET    /ingest                                                session:write standard none
POST   /ingest                                                session:write manifest none
POST   /ingest/sql                                            session:write standard none
POST   /ui/impact/manifest                                    session:write manifest none
GET    /settings                                              session:read  standard none
GET    /settings/tokens                                       session:read  standard none
POST   /settings/tokens                                       session:read  standard none
POST   /settings/tokens/{token_id}/revoke                     session:read  standard none
GET    /settings/users                                        session:admin standard none
POST   /settings/users                                        session:admin standard none
POST   /settings/users/{user_id}                              session:admin standard none
GET    /settings/teams                                        session:admin standard none
POST   /settings/teams                                        session:admin standard none
POST   /settings/teams/{team_id}/members                      session:admin standard none
POST   /settings/teams/{team_id}/delete                       session:admin standard none
GET    /settings/domains                                      session:admin standard none
POST   /settings/domains                                      session:admin standard none
POST   /settings/domains/{domain_id}/delete                   session:admin standard none
GET    /auth/oidc/login                                       public        standard none
GET    /auth/oidc/callback                                    public        standard none
GET    /auth/oidc/logout                                      public        standard none
*      /static                                                public        standard none
"""


def _app() -> Starlette:
    return create_app(Settings(neo4j_uri="bolt://127.0.0.1:1"))


@pytest.fixture(scope="module")
def app() -> Starlette:
    return _app()


def test_a_route_reached_under_another_policy_refuses_to_run() -> None:
    guarded = Route("/x", _handler, methods=["GET"], name="x", policy=bearer(Scope.READ))
    # a resolver that knows nothing of the route judges the request as unrouted
    blind = Middleware(RoutePolicyMiddleware, policies=Policies([], PUBLIC))
    client = TestClient(Starlette(routes=[guarded], middleware=[blind]))
    with pytest.raises(PolicyError, match="another route's policy"):
        client.get("/x")
    assert client.post("/x").status_code == 405


@pytest.fixture(scope="module")
def anonymous(app: Starlette) -> TestClient:
    """The app without its lifespan: enough for answers given before any storage."""
    return TestClient(app)


def _row(method: str, path: str, policy: Policy) -> str:
    who, body, replay = policy.label(), policy.body.value, policy.replay.value
    return f"{method:6} {path:54} {who:13} {body:8} {replay}".rstrip()


async def _handler(request: object) -> Response:
    return Response()


def _scope(method: str, path: str) -> dict[str, object]:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


def test_every_route_declares_the_policy_listed_here(app: Starlette) -> None:
    listed = [_row(*row) for row in Policies(app.routes, PUBLIC).listing()]
    assert listed == EXPECTED.strip("\n").splitlines()


def test_a_route_without_a_policy_stops_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    stray = PlainRoute("/api/v1/stray", _handler, methods=["GET"], include_in_schema=False)
    monkeypatch.setattr(meta, "routes", [*meta.routes, stray])
    with pytest.raises(PolicyError, match="declares no policy"):
        _app()


def test_a_post_taken_with_a_token_must_say_what_an_idempotency_key_does() -> None:
    post = Route("/x", _handler, methods=["POST"], name="x", policy=bearer(Scope.WRITE))
    with pytest.raises(PolicyError, match="Idempotency-Key"):
        Policies([post], PUBLIC)
    kept_get = Route(
        "/x", _handler, methods=["GET"], name="x", policy=bearer(Scope.READ, replay=Replay.KEPT)
    )
    with pytest.raises(PolicyError, match="nothing replays"):
        Policies([kept_get], PUBLIC)


def test_a_policy_that_contradicts_itself_is_refused() -> None:
    with pytest.raises(PolicyError):
        Policy(Access.PUBLIC, Scope.READ)
    with pytest.raises(PolicyError):
        Policy(Access.TOKEN)
    with pytest.raises(PolicyError):
        Policy(Access.SESSION, Scope.READ, replay=Replay.KEPT)


def test_a_dashboard_page_must_be_declared_for_signed_in_visitors() -> None:
    async def page(request: object, session: object) -> Response:
        return Response()

    with pytest.raises(PolicyError, match="signed-in"):
        page_route("/p", page, methods=["GET"], name="p", policy=bearer(Scope.READ))


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("GET", "/api/v1/assets/s3%3A%2F%2Flake%2Fraw", bearer(Scope.READ)),
        ("DELETE", "/api/v1/assets/a/b", bearer(Scope.WRITE, per_domain=True)),
        ("POST", "/api/v1/tokens", bearer(Scope.ADMIN, replay=Replay.SECRET)),
        ("POST", "/api/v1/query", bearer(Scope.READ, replay=Replay.READ_ONLY)),
        ("GET", "/api/v1/lineage/a/upstream", bearer(Scope.READ, rechecked=True)),
        (
            "POST",
            "/api/v1/lineage/manifest",
            bearer(Scope.WRITE, body=Body.MANIFEST, replay=Replay.KEPT, per_domain=True),
        ),
        ("POST", "/ingest", signed_in(Scope.WRITE, body=Body.MANIFEST, per_domain=True)),
        ("POST", "/assets/a%2Fb/edit", signed_in(Scope.WRITE, per_domain=True)),
        ("POST", "/settings/users", signed_in(Scope.ADMIN)),
        ("GET", "/static/app.js", PUBLIC),
        ("GET", "/api/v1/no-such-thing", PUBLIC),
        ("TRACE", "/api/v1/assets", PUBLIC),
    ],
)
def test_a_request_meets_the_policy_of_the_route_the_router_picks(
    method: str, path: str, expected: Policy, app: Starlette
) -> None:
    policies = Policies(app.routes, PUBLIC)
    assert policies.resolve(_scope(method, path))[1] == expected


def test_the_token_a_route_asks_for_is_asked_for(anonymous: TestClient) -> None:
    assert anonymous.get("/api/v1/assets").status_code == 401
    assert anonymous.post("/api/v1/query/cypher", json={}).status_code == 401
    assert anonymous.get("/api/v1/no-such-thing").status_code == 404
    assert anonymous.get("/healthz").status_code == 200


def test_the_body_ceiling_a_route_declares_is_the_one_applied(anonymous: TestClient) -> None:
    eleven_mib = str(11 * 1024 * 1024)
    big = {"content-length": eleven_mib, "content-type": "application/json"}
    # the standard ceiling (10 MiB) turns this away before anyone asks who is calling
    assert anonymous.post("/api/v1/assets", headers=big, content=b"").status_code == 413
    # a manifest may be larger: this one gets as far as the token check
    assert anonymous.post("/api/v1/lineage/manifest", headers=big, content=b"").status_code == 401
