"""Schemathesis hooks for the values a JSON Schema cannot describe.

They touch only requests generated as valid (positive mode): invalid ones go out
as generated, so the service's refusals are still checked.

- `cursor`: valid only as the service issued it (an encoded sort key), so a
  pattern-valid random string is rightly refused (400 invalid_cursor). Positive
  cases go without one, i.e. from the first page.
- A diff's `from` is not after its `to` (422): positive cases swap the two.
- A traversal's filters (`type`, `platform`, `tag`, `owner`) and `fanout` do not go
  with `as_of` (422 naming the parameter: the past is walked over the history layer,
  which they do not read), a rule between fields no schema says. Positive cases with
  `as_of` go without them.
- `Idempotency-Key`: a key stands for one request; the same key with another body
  is refused by design (422 idempotency_key_reused). Positive cases get a fresh key.
- A PUT body's `id`: may repeat the id in the path (GET, edit, PUT round-trips) but
  must then be that id. Positive cases carry the path's id.
- `POST /query/cypher`: the text must be Cypher, which no schema describes; positive
  cases send a read that compiles.
- Asset ids: the document's `AssetId` pattern lists every character the id rule
  takes (some 700 ranges, 144,000 characters), and Hypothesis enumerates a class's
  characters each time it builds a strategy from it: seconds each, minutes a run.
  The run draws ids from the same rule by Unicode category instead (the pattern
  itself is checked against the rule in tests/unit/test_openapi_asset_id.py), and
  so an OpenLineage dataset's `namespace` and `name` (`DatasetIdPart`).
- A dataset's `namespace/name` is its asset id, at most 512 characters in NFC: a
  length of two fields together, which no schema can say. Positive cases shorten
  the name to fit.
- Rules between two fields: an edge's `source` and `target` differ, as do a path
  query's `from` and `to`; a walk's `min_depth` is at most its `max_depth`, a quality
  rule's `min` at most its `max`. Positive cases are put in order.
- A bulk request's `replace=true` needs an `origin`, which may not be one of the
  service's own writers' (`api`, `dbt:…`, `openlineage:…`, `sql:…`, in any case: the
  schema's pattern cannot say "not these prefixes, without case"), and an empty array
  is accepted only as a replace. Positive cases are made to fit.
- A domain names existing teams (its owner and grantees; 422 unknown_team
  otherwise): positive cases get theirs made first. Its `asset` rules' values are
  asset ids, held to the id rule (no unassigned or private-use characters), which the
  text pattern every rule's value shares cannot say: positive cases drop the
  characters the id rule refuses.
- A quality rule names an existing asset, as does an edge posted with `strict`
  (422 unknown_asset otherwise): positive cases get theirs made first (a strict
  bulk of more than 20 edges is sent without `strict` instead).
- `If-Match` in a case labelled positive that breaks the document's own pattern (it
  goes without the header). Schemathesis's coverage phase (4.32,
  `coverage/_schema.py:_positive_string`) draws header values from letters and digits
  only (`HEADER_ALLOWED_CHARS`), so for a pattern that needs `"` or `*` it finds no
  valid value; it then seeds the optional header with a value of another type
  (`If-Match: 0`, its header component marked negative) into the template that every
  case of the operation is built from, and labels those cases by their body, positive.
  The service rightly refuses such a header (400 invalid_header); cases generated
  negative keep it, so that refusal is still checked, and the fuzzing and stateful
  phases draw valid entity tags from the pattern themselves.

One hook leaves cases out rather than fitting them: coverage cases that try one
schema's field values again at a second place of the same operation, read by the
same code (tests/api_fuzz/repeats.py says which and why).
"""

from __future__ import annotations

import functools
import os
import re
import uuid
from typing import Any
from urllib.parse import quote, unquote

import httpx
import schemathesis
from hypothesis import strategies as st

from service.domain import datasets, origins
from service.domain.history import parse_instant
from service.domain.preconditions import IF_MATCH_PATTERN
from service.ids import MAX_ID_LENGTH, id_problem, normalise
from service.models.datasets import MAX_DATASET_PART
from service.models.teams import SLUG_PATTERN
from tests.api_fuzz.repeats import repeats_another_case

ASSET_ID_FORMAT = "x-asset-id"
DATASET_ID_PART_FORMAT = "x-dataset-id-part"
# Strict edges whose endpoints a hook makes first; a longer strict bulk goes unstrict.
STRICT_EDGES_MADE = 20
_IF_MATCH = re.compile(IF_MATCH_PATTERN)
_SLUG = re.compile(SLUG_PATTERN)
# `service.ids.id_problem`'s categories; whitespace is Zs, Zl, Zp or a control (Cc).
_ID_CHARACTERS = st.characters(exclude_categories=["Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"])
schemathesis.openapi.format(
    ASSET_ID_FORMAT, st.text(_ID_CHARACTERS, min_size=1, max_size=MAX_ID_LENGTH)
)
schemathesis.openapi.format(
    DATASET_ID_PART_FORMAT, st.text(_ID_CHARACTERS, min_size=1, max_size=MAX_DATASET_PART)
)


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:
    schemas = raw_schema["components"]["schemas"]
    for name, format_ in (("AssetId", ASSET_ID_FORMAT), ("DatasetIdPart", DATASET_ID_PART_FORMAT)):
        del schemas[name]["pattern"]
        schemas[name]["format"] = format_


@schemathesis.hook
def filter_case(context: Any, case: schemathesis.Case[Any]) -> bool:
    """Coverage cases that only repeat another at a second place: tests/api_fuzz/repeats.py."""
    return not repeats_another_case(case)


_NOT_WITH_AS_OF = ("type", "platform", "tag", "owner", "fanout")


def _in_order(query: dict[str, Any]) -> dict[str, Any]:
    """A diff's `from` is not after its `to` (422 when it is): swapped when both are
    instants in the wrong order."""
    start, end = query.get("from"), query.get("to")
    if not (isinstance(start, str) and isinstance(end, str)):
        return query
    first, last = parse_instant(start), parse_instant(end)
    if first is None or last is None or first <= last:
        return query
    return {**query, "from": end, "to": start}


def _positive(case: schemathesis.Case[Any]) -> bool:
    meta = case.meta
    return meta is not None and meta.generation.mode.is_positive


@schemathesis.hook
def before_call(context: Any, case: schemathesis.Case[Any], kwargs: dict[str, Any]) -> None:
    if not _positive(case):
        return
    if case.query and "cursor" in case.query:
        case.query = {k: v for k, v in case.query.items() if k != "cursor"}
    if case.query and "as_of" in case.query:
        case.query = {k: v for k, v in case.query.items() if k not in _NOT_WITH_AS_OF}
    if case.query and case.operation.path.endswith("/diff"):
        case.query = _in_order(case.query)
    if (
        isinstance(case.body, dict)
        and "cursor" in case.body
        and case.operation.path == "/api/v1/query"
    ):
        case.body = {k: v for k, v in case.body.items() if k != "cursor"}
    if case.headers and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    if case.headers and not _IF_MATCH.fullmatch(str(case.headers.get("If-Match", "*"))):
        del case.headers["If-Match"]
    if case.method == "PUT" and isinstance(case.body, dict) and "id" in case.body:
        path_id = next(iter((case.path_parameters or {}).values()), None)
        if path_id is not None:  # held percent-encoded, as it goes into the URL
            case.body = {**case.body, "id": unquote(path_id)}
    if (
        case.operation.path.startswith("/api/v1/users")
        and isinstance(case.body, dict)
        and isinstance(case.body.get("password"), str)
    ):
        case.body = {**case.body, "password": _strong_password(case.body.get("username"))}
    if case.operation.path == "/api/v1/query/cypher" and isinstance(case.body, dict):
        case.body = {**case.body, "query": "MATCH (a:Asset) RETURN a.id AS id LIMIT 5"}
    if case.operation.path == "/api/v1/query" and isinstance(case.body, dict):
        case.body = _ordered_query(case.body)
    if case.operation.path.startswith("/api/v1/quality/rules") and isinstance(case.body, dict):
        params = case.body.get("params")
        if isinstance(params, dict):
            case.body = {**case.body, "params": _ordered(params, "min", "max")}
        asset_id = case.body.get("asset_id")
        if isinstance(asset_id, str):
            _ensure_asset(asset_id)
    if case.operation.path in (
        "/api/v1/lineage",
        "/api/v1/lineage/openlineage",
        "/api/v1/lineage/bulk",
    ) or case.operation.path.startswith("/api/v1/assets"):
        case.body = _datasets_fit(case.body)
    if case.operation.path == "/api/v1/lineage/sql" and isinstance(case.body, dict):
        case.body = {
            **case.body,
            "dialect": "postgres",
            "namespace": _namespace_fit(case.body.get("namespace")),
        }
    if case.query and ("dataset_namespace" in case.query or "dataset_name" in case.query):
        case.query = _dataset_query_fit(case.query)
    if (
        case.operation.path == "/api/v1/lineage/manifest"
        and case.query
        and "namespace" in case.query
    ):
        case.query = {**case.query, "namespace": _namespace_fit(case.query["namespace"])}
    if case.operation.path == "/api/v1/domains/{domain_id}" and isinstance(case.body, dict):
        _ensure_teams(case.body)
        case.body = _asset_rules_fit(case.body)
    if case.operation.path == "/api/v1/lineage" and isinstance(case.body, dict):
        case.body = _no_loop(case.body, "source", "target")
    if case.operation.path == "/api/v1/lineage/bulk" and isinstance(case.body, list):
        case.body = [
            _no_loop(e, "source", "target") if isinstance(e, dict) else e for e in case.body
        ]
        case.query = _owned_set(case.query or {}, case.body)
    strict = str((case.query or {}).get("strict", "")).lower() in ("true", "1", "yes")
    if strict and case.operation.path in ("/api/v1/lineage", "/api/v1/lineage/bulk"):
        edges = case.body if isinstance(case.body, list) else [case.body]
        if len(edges) > STRICT_EDGES_MADE:  # making thousands of assets first: not strict
            case.query = {k: v for k, v in (case.query or {}).items() if k != "strict"}
            edges = []
        for edge in edges:
            for end in ("source", "target"):
                value = edge.get(end) if isinstance(edge, dict) else None
                if isinstance(value, str):
                    _ensure_asset(value)
                elif isinstance(value, dict):  # a dataset end: an asset that holds it
                    _ensure_dataset(value)


def _strong_password(username: Any) -> str:
    """A password the service's rules accept (which no schema can say: it must not
    contain the username, nor be a common one): 20 characters none of which is in the
    username, so the username cannot be inside it."""
    taken = set(str(username or "").lower())
    pool = [c for c in "QzKxWvJmHpRtBnGd!#$%&*+-=?@^_~" if c.lower() not in taken]
    return "".join(pool[i % len(pool)] for i in range(20))


def _datasets_fit(value: Any) -> Any:
    """`value` with every {namespace, name} object in it (datasets, and harmlessly jobs)
    made a dataset the naming rules take: a namespace they refuse (`:x` has no scheme)
    gets one, and the name is cut so that `namespace/name`, normalised, is at most an
    id's length (a default port may lengthen it)."""
    if isinstance(value, list):
        return [_datasets_fit(item) for item in value]
    if not isinstance(value, dict):
        return value
    value = {key: _datasets_fit(item) for key, item in value.items()}
    namespace, name = value.get("namespace"), value.get("name")
    if isinstance(namespace, str) and isinstance(name, str):
        namespace = _namespace_fit(namespace)
        while len(name) > 1 and not _names_a_dataset(namespace, name):
            name = name[:-1]
        value["namespace"], value["name"] = (
            namespace,
            name if _names_a_dataset(namespace, name) else "x",
        )
    return value


def _names_a_dataset(namespace: str, name: str) -> bool:
    try:
        ref = datasets.normalise(namespace, name)
    except datasets.DatasetNameError:
        return False
    return (
        len(normalise(f"{namespace}/{name}")) <= MAX_ID_LENGTH
        and len(ref.default_id) <= MAX_ID_LENGTH
    )


def _namespace_fit(namespace: Any) -> Any:
    """A namespace the naming rules take: the fuzzer's own, or it behind a scheme."""
    if not isinstance(namespace, str) or _names_a_dataset(namespace, "x"):
        return namespace
    fitted = "fuzz://" + namespace.lstrip(":/")[:400]
    return fitted if _names_a_dataset(fitted, "x") else "fuzz://x"


def _dataset_query_fit(query: dict[str, Any]) -> dict[str, Any]:
    """A dataset name is asked for within a namespace; both as the naming rules take them."""
    query = dict(query)
    if "dataset_namespace" not in query:
        query.pop("dataset_name", None)
        return query
    query["dataset_namespace"] = _namespace_fit(query["dataset_namespace"])
    name = query.get("dataset_name")
    if isinstance(name, str) and not _names_a_dataset(query["dataset_namespace"], name):
        query["dataset_name"] = "x"
    return query


def _owned_set(query: dict[str, Any], body: list[Any]) -> dict[str, Any]:
    """A bulk request's `origin` and `replace` as they go together: `replace` names an
    origin, which is none of the service's own writers', and an empty body replaces."""
    query = dict(query)
    origin = query.get("origin")
    if isinstance(origin, str) and origins.refusal(origin) is not None:
        query["origin"] = "fuzz-" + origin[: origins.MAX_ORIGIN - 5]
    replace = str(query.get("replace", "")).lower() in ("true", "1", "yes")
    if (replace or not body) and not query.get("origin"):
        query["origin"] = "fuzz:sync"
    if not body:
        query["replace"] = "true"
    return query


def _no_loop(values: dict[str, Any], one: str, other: str) -> dict[str, Any]:
    """`values` with `other` changed (its last character) where it equals `one`."""
    if values.get(one) != values.get(other) or not isinstance(values.get(other), str):
        return values
    text = values[other]
    return {**values, other: text[:-1] + ("b" if text.endswith("a") else "a")}


@functools.cache
def _client() -> httpx.Client:
    """One connection pool for the hooks' own requests (a client per call costs a TLS
    context each, even for plain HTTP)."""
    return httpx.Client(
        base_url=os.environ["GOVERNANCE_FUZZ_URL"],
        headers={"Authorization": f"Bearer {os.environ['GOVERNANCE_FUZZ_TOKEN']}"},
        timeout=30,
    )


def _ensure_dataset(dataset: dict[str, Any]) -> None:
    """An edge naming the dataset makes a placeholder holding it (a strict one needs it)."""
    _client().post("/api/v1/lineage", json={"source": dataset, "target": "fuzz.holder"})


def _ensure_asset(asset_id: str) -> None:
    url = f"/api/v1/assets/{quote(asset_id, safe='')}"
    if _client().get(url).status_code == 404:
        _client().put(url, json={"name": "fuzz", "type": "table"})


def _ensure_teams(domain: dict[str, Any]) -> None:
    """The teams a domain names (its owner and grantees) exist first: a domain naming
    an unknown team is 422 unknown_team, a rule between resources."""
    grants = domain.get("grants")
    named = [domain.get("owner_team")] + [
        g.get("team") for g in (grants if isinstance(grants, list) else []) if isinstance(g, dict)
    ]
    for team in {t for t in named if isinstance(t, str) and _SLUG.fullmatch(t)}:
        url = f"/api/v1/teams/{team}"
        if _client().get(url).status_code == 404:
            _client().put(url, json={})


def _asset_rules_fit(domain: dict[str, Any]) -> dict[str, Any]:
    """An `asset` rule's value is an asset id, held to the id rule, which refuses
    unassigned and private-use characters the text pattern of every rule's value takes
    (422 naming the value): the characters the id rule refuses are dropped."""
    rules = domain.get("rules")
    if not isinstance(rules, list):
        return domain
    return {**domain, "rules": [_asset_rule_fit(rule) for rule in rules]}


def _asset_rule_fit(rule: Any) -> Any:
    if not isinstance(rule, dict) or rule.get("kind") != "asset":
        return rule
    value = rule.get("value")
    if not isinstance(value, str) or id_problem(value) is None:
        return rule
    return {**rule, "value": "".join(ch for ch in value if id_problem(ch) is None) or "a"}


def _ordered_query(body: dict[str, Any]) -> dict[str, Any]:
    path = body.get("path")
    if isinstance(path, dict):
        body = {**body, "path": _no_loop(path, "from", "to")}
    walk = body.get("traverse")
    if isinstance(walk, dict):
        body = {**body, "traverse": _ordered(walk, "min_depth", "max_depth", default_high=5)}
    return body


def _ordered(
    values: dict[str, Any], low: str, high: str, default_high: int | None = None
) -> dict[str, Any]:
    """`values` with `low` <= `high` where both are numbers (`high` may default)."""
    a, b = values.get(low), values.get(high, default_high)
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))
    if numbers and a > b:  # type: ignore[operator]
        return {**values, low: b, high: a}
    return values
