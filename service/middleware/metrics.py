"""Request metrics, labelled by route template rather than raw path (raw paths hold
asset ids, which would explode the label space): every request, ingestion sizes and
times, and refused credentials.

Refusals are read from the answer, where the auth layer states them: RFC 6750's
`WWW-Authenticate` error (`invalid_token`, `insufficient_scope`), a 429 without a
`RateLimit-Limit` header (too many failures from one address, not a token's
rate), and the sign-in form, which answers a wrong password by showing itself
again (200) and succeeds with a redirect.
"""

from __future__ import annotations

from starlette.types import ASGIApp

from service.metrics import Metrics
from service.middleware.exchange import Exchange, Observing

API = "/api/v1"
SIGN_IN = "/login"
# Requests that bring metadata in, by route template.
INGESTION = {
    f"{API}/lineage/bulk": "bulk_edges",
    f"{API}/lineage/manifest": "manifest",
    f"{API}/lineage/openlineage": "openlineage",
    f"{API}/quality/results/dbt": "dbt_results",
    "/ingest": "dashboard_upload",
}


class MetricsMiddleware(Observing):
    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        super().__init__(app)
        self.metrics = metrics

    def over(self, exchange: Exchange) -> None:
        method, route, seconds = exchange.scope["method"], exchange.route, exchange.seconds
        self.metrics.requests.labels(method, route, str(exchange.status)).inc()
        self.metrics.latency.labels(method, route).observe(seconds)
        kind = INGESTION.get(route) if method == "POST" else None
        if kind is not None:
            self.metrics.ingest_bytes.labels(kind).observe(exchange.received)
            self.metrics.ingest_duration.labels(kind, outcome(exchange.status)).observe(seconds)
        refused = auth_failure(exchange)
        if refused is not None:
            self.metrics.auth_failures.labels(*refused).inc()


def outcome(status: int) -> str:
    return "ok" if status < 400 else "rejected" if status < 500 else "failed"


def auth_failure(exchange: Exchange) -> tuple[str, str] | None:
    """(channel, reason) when the answer refused a credential, else None."""
    path, status = exchange.scope["path"], exchange.status
    challenge = exchange.header(b"www-authenticate") or ""
    if exchange.scope["method"] == "POST" and exchange.route == SIGN_IN:
        reasons = {200: "wrong_password", 403: "expired_form", 429: "too_many_failures"}
        return ("dashboard", reasons[status]) if status in reasons else None
    channel = "api" if path.startswith(API) else "metrics" if path == "/metrics" else "dashboard"
    if status == 401:
        if channel == "dashboard":
            return channel, "no_session"
        return channel, "invalid_token" if 'error="invalid_token"' in challenge else "missing_token"
    if status == 403 and 'error="insufficient_scope"' in challenge:
        return channel, "insufficient_scope"
    if status == 429 and channel == "api" and exchange.header(b"ratelimit-limit") is None:
        return channel, "too_many_failures"
    return None
