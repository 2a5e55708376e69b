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

from governance_client._async.admin import AsyncTokens, AsyncUsers
from governance_client._async.catalog import AsyncAssets, AsyncLineage
from governance_client._async.client import AsyncClient
from governance_client._async.events import AsyncEvents, AsyncEventStream, AsyncWebhooks
from governance_client._async.governance import AsyncPolicies, AsyncQuality, AsyncQuery
from governance_client._call import RequestOptions
from governance_client._calls import MAX_BULK_EDGES, MAX_OPENLINEAGE_EVENTS, MAX_SQL_STATEMENTS
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
from governance_client._response import APIResponse
from governance_client._sse import StreamConnection
from governance_client._sync.admin import Tokens, Users
from governance_client._sync.catalog import Assets, Lineage
from governance_client._sync.client import Client
from governance_client._sync.events import Events, EventStream, Webhooks
from governance_client._sync.governance import Policies, Quality, Query
from governance_client._version import __version__
from governance_client._webhooks import verify_webhook
from governance_client.types import (
    Asset,
    AssetFilter,
    BulkResult,
    Column,
    ColumnEdge,
    ColumnGraph,
    ColumnMapping,
    ColumnMappingInput,
    ColumnNode,
    ColumnRef,
    CypherResult,
    Dataset,
    DbtResultsSummary,
    Delivery,
    Edge,
    EdgeInput,
    EvaluationSummary,
    Event,
    GraphEdge,
    GraphNode,
    Health,
    LineageGraph,
    ManifestAssetCounts,
    ManifestSummary,
    Me,
    OpenLineageResult,
    Page,
    Policy,
    PolicySelector,
    QualityResult,
    QualityRule,
    QueryBody,
    QueryResult,
    ServiceInfo,
    SqlFailure,
    SqlResult,
    SqlStatement,
    SqlStatementCounts,
    Token,
    TokenCreated,
    User,
    Violation,
    Violations,
    Webhook,
    WebhookCreated,
    WebhookTestResult,
)

__all__ = [
    "MAX_BULK_EDGES",
    "MAX_OPENLINEAGE_EVENTS",
    "MAX_SQL_STATEMENTS",
    "APIConnectionError",
    "APIError",
    "APIResponse",
    "APITimeoutError",
    "Asset",
    "AssetFilter",
    "Assets",
    "AsyncAssets",
    "AsyncClient",
    "AsyncEventStream",
    "AsyncEvents",
    "AsyncLineage",
    "AsyncPolicies",
    "AsyncQuality",
    "AsyncQuery",
    "AsyncTokens",
    "AsyncUsers",
    "AsyncWebhooks",
    "AuthenticationError",
    "BadRequestError",
    "BulkResult",
    "Client",
    "Column",
    "ColumnEdge",
    "ColumnGraph",
    "ColumnMapping",
    "ColumnMappingInput",
    "ColumnNode",
    "ColumnRef",
    "ConflictError",
    "CypherResult",
    "Dataset",
    "DbtResultsSummary",
    "Delivery",
    "Edge",
    "EdgeInput",
    "EvaluationSummary",
    "Event",
    "EventStream",
    "Events",
    "GovernanceError",
    "GraphEdge",
    "GraphNode",
    "Health",
    "Lineage",
    "LineageGraph",
    "ManifestAssetCounts",
    "ManifestSummary",
    "Me",
    "NotFoundError",
    "OpenLineageResult",
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
    "RequestOptions",
    "ServerError",
    "ServiceInfo",
    "SqlFailure",
    "SqlResult",
    "SqlStatement",
    "SqlStatementCounts",
    "StreamConnection",
    "Token",
    "TokenCreated",
    "Tokens",
    "UnavailableError",
    "User",
    "Users",
    "ValidationError",
    "Violation",
    "Violations",
    "Webhook",
    "WebhookCreated",
    "WebhookTestResult",
    "WebhookVerificationError",
    "Webhooks",
    "__version__",
    "verify_webhook",
]
