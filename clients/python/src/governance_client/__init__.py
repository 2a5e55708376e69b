"""Python client for the Data Governance Service API.

    from governance_client import Client

    with Client(base_url="http://localhost:8080", token="dgs_...") as client:
        client.assets.create("raw.orders", name="Orders", type="table")
        for asset in client.assets.iter(tags=["pii"]):
            print(asset["id"])
        client.policies.create("tables have owners", kind="require_owner",
                               selector={"type": "table"})
        for violation in client.policies.violations("pol_..."):
            print(violation["asset_id"], violation["reason"])

``AsyncClient`` is the same API for asyncio.
"""

from governance_client._async_client import (
    AsyncAssets,
    AsyncClient,
    AsyncEvents,
    AsyncLineage,
    AsyncTokens,
)
from governance_client._async_governance import AsyncPolicies, AsyncQuality, AsyncQuery
from governance_client._calls import MAX_BULK_EDGES
from governance_client._client import Assets, Client, Events, Lineage, Tokens
from governance_client._errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GovernanceError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitedError,
    ServerError,
    UnavailableError,
    ValidationError,
    WebhookVerificationError,
)
from governance_client._governance import Policies, Quality, Query
from governance_client._version import __version__
from governance_client._webhooks import verify_webhook
from governance_client.types import (
    Asset,
    AssetFilter,
    BulkResult,
    Column,
    CypherResult,
    DbtResultsSummary,
    Edge,
    EdgeInput,
    EvaluationSummary,
    Event,
    GraphEdge,
    GraphNode,
    LineageGraph,
    ManifestSummary,
    Page,
    Policy,
    PolicySelector,
    QualityResult,
    QualityRule,
    QueryBody,
    QueryResult,
    ServiceInfo,
    Token,
    TokenCreated,
    Violation,
    Violations,
)

__all__ = [
    "MAX_BULK_EDGES",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "Asset",
    "AssetFilter",
    "Assets",
    "AsyncAssets",
    "AsyncClient",
    "AsyncEvents",
    "AsyncLineage",
    "AsyncPolicies",
    "AsyncQuality",
    "AsyncQuery",
    "AsyncTokens",
    "AuthenticationError",
    "BadRequestError",
    "BulkResult",
    "Client",
    "Column",
    "ConflictError",
    "CypherResult",
    "DbtResultsSummary",
    "Edge",
    "EdgeInput",
    "EvaluationSummary",
    "Event",
    "Events",
    "GovernanceError",
    "GraphEdge",
    "GraphNode",
    "Lineage",
    "LineageGraph",
    "ManifestSummary",
    "NotFoundError",
    "Page",
    "PermissionDeniedError",
    "Policies",
    "Policy",
    "PolicySelector",
    "PreconditionFailedError",
    "Quality",
    "QualityResult",
    "QualityRule",
    "Query",
    "QueryBody",
    "QueryResult",
    "RateLimitedError",
    "ServerError",
    "ServiceInfo",
    "Token",
    "TokenCreated",
    "Tokens",
    "UnavailableError",
    "ValidationError",
    "Violation",
    "Violations",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
