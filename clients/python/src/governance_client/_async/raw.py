"""``client.with_raw_response``: every operation that sends one request, answering
an ``APIResponse`` (status, headers, and ``parse()`` for the usual value) instead
of the value alone. Iterators and streams are not here: they span many answers.
The client gathers these wrappers into its ``with_raw_response``."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from governance_client._response import APIResponse, answer, recording

if TYPE_CHECKING:
    from governance_client._async.access import AsyncDomains, AsyncTeams
    from governance_client._async.admin import AsyncTokens, AsyncUsers
    from governance_client._async.catalog import AsyncAssets, AsyncLineage
    from governance_client._async.events import AsyncEvents, AsyncWebhooks
    from governance_client._async.governance import AsyncPolicies, AsyncQuality, AsyncQuery

P = ParamSpec("P")
T = TypeVar("T")


def raw(operation: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[APIResponse[T]]]:
    """``operation``, answering its ``APIResponse`` (that of its last request)."""

    @functools.wraps(operation)
    async def call(*args: P.args, **kwargs: P.kwargs) -> APIResponse[T]:
        with recording() as seen:
            value = await operation(*args, **kwargs)
        return answer(value, seen)

    return call


class AsyncAssetsWithRawResponse:
    def __init__(self, assets: AsyncAssets) -> None:
        self.list = raw(assets.list)
        self.create = raw(assets.create)
        self.get = raw(assets.get)
        self.put = raw(assets.put)
        self.patch = raw(assets.patch)
        self.delete = raw(assets.delete)
        self.list_history = raw(assets.list_history)
        self.columns = raw(assets.columns)
        self.get_column_tag_rule = raw(assets.get_column_tag_rule)
        self.put_column_tag_rule = raw(assets.put_column_tag_rule)


class AsyncLineageWithRawResponse:
    def __init__(self, lineage: AsyncLineage) -> None:
        self.add_edge = raw(lineage.add_edge)
        self.bulk = raw(lineage.bulk)
        self.ingest_openlineage = raw(lineage.ingest_openlineage)
        self.ingest_sql = raw(lineage.ingest_sql)
        self.upload_manifest = raw(lineage.upload_manifest)
        self.check_manifest = raw(lineage.check_manifest)
        self.list_edges = raw(lineage.list_edges)
        self.delete_edge = raw(lineage.delete_edge)
        self.get = raw(lineage.get)
        self.upstream = raw(lineage.upstream)
        self.downstream = raw(lineage.downstream)
        self.diff = raw(lineage.diff)
        self.column_upstream = raw(lineage.column_upstream)
        self.column_downstream = raw(lineage.column_downstream)


class AsyncEventsWithRawResponse:
    def __init__(self, events: AsyncEvents) -> None:
        self.list = raw(events.list)


class AsyncWebhooksWithRawResponse:
    def __init__(self, webhooks: AsyncWebhooks) -> None:
        self.list = raw(webhooks.list)
        self.create = raw(webhooks.create)
        self.get = raw(webhooks.get)
        self.patch = raw(webhooks.patch)
        self.delete = raw(webhooks.delete)
        self.test = raw(webhooks.test)
        self.list_deliveries = raw(webhooks.list_deliveries)


class AsyncPoliciesWithRawResponse:
    def __init__(self, policies: AsyncPolicies) -> None:
        self.list = raw(policies.list)
        self.create = raw(policies.create)
        self.get = raw(policies.get)
        self.replace = raw(policies.replace)
        self.patch = raw(policies.patch)
        self.delete = raw(policies.delete)
        self.list_violations = raw(policies.list_violations)
        self.evaluate = raw(policies.evaluate)


class AsyncQualityWithRawResponse:
    def __init__(self, quality: AsyncQuality) -> None:
        self.list = raw(quality.list)
        self.create = raw(quality.create)
        self.get = raw(quality.get)
        self.replace = raw(quality.replace)
        self.patch = raw(quality.patch)
        self.delete = raw(quality.delete)
        self.record_result = raw(quality.record_result)
        self.list_results = raw(quality.list_results)
        self.upload_dbt_results = raw(quality.upload_dbt_results)


class AsyncQueryWithRawResponse:
    def __init__(self, query: AsyncQuery) -> None:
        self.run = raw(query.run)
        self.cypher = raw(query.cypher)


class AsyncTokensWithRawResponse:
    def __init__(self, tokens: AsyncTokens) -> None:
        self.list = raw(tokens.list)
        self.create = raw(tokens.create)
        self.get = raw(tokens.get)
        self.revoke = raw(tokens.revoke)


class AsyncUsersWithRawResponse:
    def __init__(self, users: AsyncUsers) -> None:
        self.list = raw(users.list)
        self.create = raw(users.create)
        self.get = raw(users.get)
        self.patch = raw(users.patch)
        self.delete = raw(users.delete)


class AsyncTeamsWithRawResponse:
    def __init__(self, teams: AsyncTeams) -> None:
        self.put = raw(teams.put)
        self.list = raw(teams.list)
        self.get = raw(teams.get)
        self.delete = raw(teams.delete)
        self.add_member = raw(teams.add_member)
        self.remove_member = raw(teams.remove_member)


class AsyncDomainsWithRawResponse:
    def __init__(self, domains: AsyncDomains) -> None:
        self.put = raw(domains.put)
        self.list = raw(domains.list)
        self.get = raw(domains.get)
        self.delete = raw(domains.delete)
