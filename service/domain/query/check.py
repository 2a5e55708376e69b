"""The rules that tie a query's fields together, each reported at the field it names.

The model (`service.models.query`) checks each field alone; these checks need two
fields or the configured limits. Every problem found is reported, not just the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.errors import FieldError, Unprocessable
from service.models.query import Query, ReturnForm
from service.settings import Limits


@dataclass(frozen=True)
class Bounds:
    """What configuration allows: the deepest walk, the largest page, and how many paths
    a path query enumerates at most (all shortest paths can be exponentially many)."""

    max_depth: int
    max_limit: int
    path_cap: int

    @classmethod
    def of(cls, limits: Limits) -> Bounds:
        return cls(
            max_depth=limits.max_lineage_depth,
            max_limit=limits.max_lineage_nodes,
            path_cap=limits.max_lineage_nodes,
        )


def form_of(query: Query) -> ReturnForm:
    if query.return_ is not None:
        return query.return_
    return "paths" if query.path is not None else "nodes"


def check(query: Query, bounds: Bounds) -> None:
    errors = _shape(query) + _ranges(query, bounds)
    if errors:
        fields = ", ".join(".".join(str(part) for part in e.loc) for e in errors)
        raise Unprocessable(f"Invalid query: {fields}.", errors=errors)


def _error(msg: str, *loc: str) -> FieldError:
    return FieldError(("body", *loc), msg, "query_shape")


def _shape(query: Query) -> list[FieldError]:
    errors = []
    if query.start is not None and query.path is not None:
        errors.append(_error("give start or path, not both", "path"))
    if query.start is None and query.path is None:
        errors.append(_error("start or path is required", "start"))
    if query.start is not None:
        if query.start.ids is not None and query.start.where is not None:
            errors.append(_error("give ids or where, not both", "start", "where"))
        if query.start.ids is None and query.start.where is None:
            errors.append(_error("ids or where is required", "start"))
    if query.traverse is not None and query.path is not None:
        errors.append(_error("traverse goes with start, not with path", "traverse"))
    if query.path is None and form_of(query) == "paths":
        errors.append(_error("return paths needs a path query", "return"))
    if query.path is not None and query.path.from_ == query.path.to:
        errors.append(_error("from and to must differ", "path", "to"))
    return errors


def _ranges(query: Query, bounds: Bounds) -> list[FieldError]:
    errors = []
    if query.limit > bounds.max_limit:
        errors.append(_range(f"limit must be at most {bounds.max_limit}", "limit"))
    walk = query.traverse
    if walk is not None:
        if walk.max_depth > bounds.max_depth:
            msg = f"max_depth must be at most {bounds.max_depth}"
            errors.append(_range(msg, "traverse", "max_depth"))
        if walk.min_depth > walk.max_depth:
            errors.append(_range("min_depth must not exceed max_depth", "traverse", "min_depth"))
    if query.path is not None and query.path.max_depth > bounds.max_depth:
        msg = f"max_depth must be at most {bounds.max_depth}"
        errors.append(_range(msg, "path", "max_depth"))
    return errors


def _range(msg: str, *loc: str) -> FieldError:
    return FieldError(("body", *loc), msg, "out_of_range")
