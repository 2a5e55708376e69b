"""Policies, quality rules and the query facility."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from datetime import datetime
from typing import Any

from governance_client import _governance_calls as calls
from governance_client._async.paging import paginate
from governance_client._async.resource import AsyncResource, AsyncVersioned
from governance_client._call import RequestOptions
from governance_client._governance_calls import RunResults
from governance_client.types import (
    CypherResult,
    DbtResultsSummary,
    EvaluationSummary,
    Page,
    Policy,
    PolicyKind,
    PolicySelector,
    PolicySeverity,
    QualityResult,
    QualityRule,
    QueryBody,
    QueryResult,
    ResultStatus,
    RuleSeverity,
    RuleStatus,
    RuleType,
    Violation,
    Violations,
)


class AsyncPolicies(AsyncVersioned[Policy]):
    """``/policies``: rules every governed asset must follow, and their violations.
    ``get``, ``patch`` and ``delete`` (after which its open violations are announced
    as resolved) take a policy id."""

    path = "/policies"

    async def list(
        self,
        *,
        kind: PolicyKind | str | None = None,
        enabled: bool | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[Policy]:
        """One page of policies ordered by id."""
        call = calls.list_policies(kind=kind, enabled=enabled, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter(
        self,
        *,
        kind: PolicyKind | str | None = None,
        enabled: bool | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Policy]:
        """Every matching policy, fetching page after page as the loop goes on."""
        return paginate(
            lambda at: self.list(
                kind=kind, enabled=enabled, limit=limit, cursor=at, options=options
            ),
            cursor,
        )

    async def create(
        self,
        name: str,
        *,
        kind: PolicyKind | str,
        selector: PolicySelector | Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        severity: PolicySeverity | str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> Policy:
        """Create a policy (its id, ``pol_...``, is made by the service). An unknown
        kind, selector key or param is a ``ValidationError`` naming it."""
        body = calls.policy_fields(
            name=name,
            kind=kind,
            description=description,
            enabled=enabled,
            severity=severity,
            selector=selector,
            params=params,
        )
        return await self._client._call(calls.create_policy(body, idempotency_key), options)

    async def replace(
        self,
        id: str,
        *,
        name: str,
        kind: PolicyKind | str,
        selector: PolicySelector | Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        severity: PolicySeverity | str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        if_match: int | str | None = None,
        options: RequestOptions | None = None,
    ) -> Policy:
        """Replace a policy's definition (fields left out take their defaults); never
        creates. ``if_match=version``: ``PreconditionFailedError`` if it changed."""
        body = calls.policy_fields(
            name=name,
            kind=kind,
            description=description,
            enabled=enabled,
            severity=severity,
            selector=selector,
            params=params,
        )
        return await self._client._call(calls.put_policy(id, body, if_match), options)

    async def list_violations(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Violations:
        """One page of the policy's open violations (ordered by asset id), with
        ``evaluated_at``: when they were computed (None before the first evaluation)."""
        call = calls.list_violations(id, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter_violations(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Violation]:
        """Every open violation of the policy, fetching page after page."""

        async def fetch(at: str | None) -> Page[Violation]:
            page = await self.list_violations(id, limit=limit, cursor=at, options=options)
            return {"items": page["violations"], "next_cursor": page["next_cursor"]}

        return paginate(fetch, cursor)

    async def evaluate(
        self, *, idempotency_key: str | None = None, options: RequestOptions | None = None
    ) -> EvaluationSummary:
        """Evaluate every enabled policy now (the service also does it in the
        background after changes) and say what opened and resolved."""
        return await self._client._call(calls.evaluate_policies(idempotency_key), options)


class AsyncQuality(AsyncVersioned[QualityRule]):
    """``/quality``: quality rules on assets, their results, and dbt test runs.
    ``get``, ``patch`` (of the definition) and ``delete`` (with its results) take a
    rule id."""

    path = "/quality/rules"

    async def list(
        self,
        *,
        asset_id: str | None = None,
        status: RuleStatus | str | None = None,
        type: RuleType | str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[QualityRule]:
        """One page of quality rules ordered by id."""
        call = calls.list_rules(
            asset_id=asset_id, status=status, type=type, limit=limit, cursor=cursor
        )
        return await self._client._call(call, options)

    def iter(
        self,
        *,
        asset_id: str | None = None,
        status: RuleStatus | str | None = None,
        type: RuleType | str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[QualityRule]:
        """Every matching rule, fetching page after page as the loop goes on."""
        return paginate(
            lambda at: self.list(
                asset_id=asset_id,
                status=status,
                type=type,
                limit=limit,
                cursor=at,
                options=options,
            ),
            cursor,
        )

    async def create(
        self,
        asset_id: str,
        *,
        name: str,
        type: RuleType | str,
        column: str | None = None,
        params: Mapping[str, Any] | None = None,
        severity: RuleSeverity | str | None = None,
        enabled: bool | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> QualityRule:
        """Create a rule on an existing asset (its id, ``qr_...``, is made by the
        service). Params are checked against the type (``ValidationError`` naming them)."""
        body = calls.rule_fields(
            asset_id=asset_id,
            name=name,
            type=type,
            column=column,
            params=params,
            severity=severity,
            enabled=enabled,
        )
        return await self._client._call(calls.create_rule(body, idempotency_key), options)

    async def replace(
        self,
        id: str,
        *,
        asset_id: str,
        name: str,
        type: RuleType | str,
        column: str | None = None,
        params: Mapping[str, Any] | None = None,
        severity: RuleSeverity | str | None = None,
        enabled: bool | None = None,
        if_match: int | str | None = None,
        options: RequestOptions | None = None,
    ) -> QualityRule:
        """Replace a rule's definition; never creates. Its status and history stay."""
        body = calls.rule_fields(
            asset_id=asset_id,
            name=name,
            type=type,
            column=column,
            params=params,
            severity=severity,
            enabled=enabled,
        )
        return await self._client._call(calls.put_rule(id, body, if_match), options)

    async def record_result(
        self,
        rule_id: str,
        status: ResultStatus | str,
        *,
        observed_value: Any = None,
        message: str | None = None,
        run_at: str | datetime | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> QualityResult:
        """Record one check: ``"pass"``, ``"fail"`` or ``"error"`` (it could not run).
        ``run_at`` (RFC 3339 text or an aware ``datetime``) defaults to now; the rule's
        status follows its newest result by ``run_at``."""
        call = calls.record_result(
            rule_id,
            status,
            observed_value=observed_value,
            message=message,
            run_at=run_at,
            idempotency_key=idempotency_key,
        )
        return await self._client._call(call, options)

    async def list_results(
        self,
        rule_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[QualityResult]:
        """One page of the rule's results, newest first."""
        call = calls.list_results(rule_id, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter_results(
        self,
        rule_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[QualityResult]:
        """The rule's whole kept history, newest first, page after page."""
        return paginate(
            lambda at: self.list_results(rule_id, limit=limit, cursor=at, options=options), cursor
        )

    async def upload_dbt_results(
        self,
        run_results: RunResults,
        *,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> DbtResultsSummary:
        """Record a dbt ``run_results.json`` (a path, its bytes, or the parsed dict)
        against the rules the manifest upload made: each test result goes to the rule
        whose id is the test's ``unique_id``. Sent gzipped, with a 600 s timeout; the
        service records an invocation once, so it is retried."""
        call = calls.upload_dbt_results(run_results, idempotency_key)
        return await self._client._call(call, options)


class AsyncQuery(AsyncResource):
    """``/query``: the JSON query language over the lineage graph, and read-only
    Cypher for administrators. Both only read, so both are retried without a key."""

    path = "/query"

    async def run(
        self, body: QueryBody | Mapping[str, Any], *, options: RequestOptions | None = None
    ) -> QueryResult:
        """One answer to a JSON query: the requested part (``nodes``, ``edges``,
        ``paths``, ``count``) and ``next_cursor``. A malformed query is a
        ``ValidationError`` whose ``errors[0]["loc"]`` names the field."""
        return await self._client._call(calls.run_query(body), options)

    async def pages(
        self, body: QueryBody | Mapping[str, Any], *, options: RequestOptions | None = None
    ) -> AsyncIterator[QueryResult]:
        """Every page of the answer: sends ``body`` again with each ``next_cursor``
        until there is none. ``limit`` in the body sets the page size."""
        cursor = body.get("cursor")
        while True:
            page = await self._client._call(calls.run_query(body, cursor), options)
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def iter(
        self, body: QueryBody | Mapping[str, Any], *, options: RequestOptions | None = None
    ) -> AsyncIterator[Any]:
        """Every item of the answer across its pages: the nodes, edges or paths
        that the body's ``return`` asks for (``graph`` and ``count``: use ``pages``)."""
        part = calls.paged_part(body)
        pages = self.pages(body, options=options)
        return (item async for page in pages for item in calls.items_of(page, part))

    async def cypher(
        self,
        query: str,
        parameters: Mapping[str, Any] | None = None,
        *,
        limit: int | None = None,
        options: RequestOptions | None = None,
    ) -> CypherResult:
        """Run read-only Cypher (admin scope): ``{"columns", "rows", "truncated"}``.
        A write or an administrative procedure is a ``ValidationError``
        (``forbidden_query``) and nothing runs."""
        return await self._client._call(calls.cypher(query, parameters, limit), options)
