"""FILTER → one Cypher predicate over one node variable, every value a parameter.

The predicate matches the stored form of an asset (`service.domain.assets`): types and
tags are lower-case on the node (and lower-cased in the filter by the model), owners
are a list, user properties are node properties named `prop.<key>`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.domain.assets import PROPERTY_PREFIX
from service.models.query import Filter


class Params:
    """The statement's parameters; the compiler picks every name, so a clash is a bug."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def add(self, name: str, value: Any) -> str:
        if name in self.values:
            raise ValueError(f"parameter {name!r} named twice")
        self.values[name] = value
        return "$" + name


def shown(var: str, hide: bool) -> str:
    """Whether the caller may read `var`: always (`true`) when nothing is hidden from
    them, else outside private domains or in one of `$readable` (the compiler adds it).
    An asset it refuses is never a start, never matches a filter or a `through`."""
    if not hide:
        return "true"
    return f"(coalesce({var}.domain_private, false) = false OR {var}.domain IN $readable)"


def both(first: str, second: str) -> str:
    """The conjunction, without a `true` that adds nothing."""
    if second == "true":
        return first
    return second if first == "true" else f"({first}) AND {second}"


def ids_predicate(var: str, ids: list[str], params: Params) -> str:
    """Start assets named by id: an index seek on `Asset.id`."""
    return f"{var}.id IN {params.add('start_ids', ids)}"


def predicate(where: Filter | None, var: str, prefix: str, params: Params) -> str:
    """`true` for no filter; otherwise the conjunction of every given field."""
    if where is None:
        return "true"

    def p(field: str, value: Any) -> str:
        return params.add(f"{prefix}_{field}", value)

    parts: list[str] = []
    if where.type is not None:
        parts.append(f"{var}.type IN {p('type', where.type)}")
    if where.platform is not None:
        parts.append(f"{var}.platform IN {p('platform', where.platform)}")
    if where.tags_all is not None:
        parts.append(f"all(tag_ IN {p('tags_all', where.tags_all)} WHERE tag_ IN {var}.tags)")
    if where.tags_any is not None:
        parts.append(f"any(tag_ IN {p('tags_any', where.tags_any)} WHERE tag_ IN {var}.tags)")
    if where.owner is not None:
        parts.append(f"any(owner_ IN {p('owner', where.owner)} WHERE owner_ IN {var}.owners)")
    if where.id_prefix is not None:
        parts.append(_id_prefix(var, where.id_prefix, p))
    if where.name_contains is not None:
        parts.append(f"toLower({var}.name) CONTAINS {p('name', where.name_contains.lower())}")
    if where.placeholder is not None:
        parts.append(f"coalesce({var}.placeholder, false) = {p('placeholder', where.placeholder)}")
    if where.has_upstream is not None:
        parts.append(f"EXISTS {{ ({var})<-[:LINEAGE]-() }} = {p('upstream', where.has_upstream)}")
    if where.has_downstream is not None:
        parts.append(
            f"EXISTS {{ ({var})-[:LINEAGE]->() }} = {p('downstream', where.has_downstream)}"
        )
    for i, (key, values) in enumerate(sorted((where.properties or {}).items())):
        parts.append(f"{var}[{p(f'key{i}', PROPERTY_PREFIX + key)}] IN {p(f'value{i}', values)}")
    return " AND ".join(parts) or "true"


def _id_prefix(var: str, prefixes: list[str], p: Callable[[str, Any], str]) -> str:
    """One prefix is a plain STARTS WITH, which the unique index on `Asset.id` seeks."""
    if len(prefixes) == 1:
        return f"{var}.id STARTS WITH {p('id_prefix', prefixes[0])}"
    return f"any(prefix_ IN {p('id_prefix', prefixes)} WHERE {var}.id STARTS WITH prefix_)"
