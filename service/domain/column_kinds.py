"""What a column mapping does to the values it carries: its `kind`. Pure; sqlglot.

A classification tag (`pii`) follows a column downstream only while the values still
reveal what the tag is about, so every mapping is put in one of a few kinds:

- `identity`: the value is copied (a bare column, an alias, a cast);
- `transformation`: the value is computed from the column and may still reveal it
  (`upper(email)`, `concat(first, last)`, and aggregates that return one of the input
  values: `min`, `max`, `any_value`, `string_agg`, `array_agg`, ...);
- `masking`: the value is hashed or masked (`md5`, `sha*`, `hash`, `mask*`, ...);
- `aggregation`: many values summarised into one that reveals none of them
  (`count`, `sum`, `avg`, ...);
- `indirect`: the column only decides which rows or how (OpenLineage INDIRECT: a join
  key, a filter, a group-by), its values are not carried;
- `unknown`: nothing says.

Kinds come from OpenLineage's column-lineage facet (type, subtype, masking flag) or
from classifying the SQL expression computing the target column; a mapping written
through the API may name its kind or have it read from its transformation text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import get_args

import sqlglot
from sqlglot import exp

from service.models.lineage import MappingKind as Kind

KINDS: tuple[str, ...] = get_args(Kind)
UNKNOWN: Kind = "unknown"
# When several transformations describe one input field, the mapping is the one that
# reveals most: a value copied somewhere is copied, whatever else is done with it.
REVEALING: tuple[Kind, ...] = (
    "identity",
    "transformation",
    "unknown",
    "aggregation",
    "masking",
    "indirect",
)
_MASKING_NAMES = frozenset(
    (
        "md5", "md5_hex", "md5_binary", "md5_number_lower64", "md5_number_upper64",
        "sha", "sha1", "sha1_hex", "sha1_binary", "sha2", "sha2_hex", "sha2_binary",
        "sha224", "sha256", "sha384", "sha512", "hash", "hashbytes", "hash_md5",
        "standard_hash", "farm_fingerprint", "xxhash64", "xxhash32", "murmur_hash",
        "murmur3_32", "cityhash64", "siphash64", "hmac", "crc32", "encrypt",
        "aes_encrypt", "redact", "anonymize", "tokenize",
    )
)  # fmt: skip
_MASKING_PREFIXES = ("mask", "sha", "md5", "hash_")
# Aggregates whose answer is one of the values they read (or all of them).
_REVEALING_AGGREGATES = frozenset(
    (
        "min", "max", "any_value", "first", "last", "first_value", "last_value",
        "nth_value", "array_agg", "array_unique_agg", "string_agg", "group_concat",
        "listagg", "collect_list", "collect_set", "mode", "arg_max", "arg_min",
        "argmax", "argmin", "max_by", "min_by", "lag", "lead",
    )
)  # fmt: skip
_OL_LABEL = re.compile(r"^(DIRECT|INDIRECT)(/[A-Z_]+)?(:|;|$)")
_OL_DIRECT = {
    "IDENTITY": "identity",
    "TRANSFORMATION": "transformation",
    "AGGREGATION": "aggregation",
}
_OL_LEGACY = {"IDENTITY": "identity", "MASKED": "masking", "MASKING": "masking"}


def most_revealing(kinds: Iterable[Kind]) -> Kind:
    return min(kinds, key=REVEALING.index, default=UNKNOWN)


def of_openlineage(type_: str | None, subtype: str | None, masking: bool | None) -> Kind:
    """One entry of an input field's `transformations`."""
    if masking:
        return "masking"
    if (type_ or "").upper() == "INDIRECT":
        return "indirect"
    if (type_ or "").upper() == "DIRECT":
        found = _OL_DIRECT.get((subtype or "").upper())
        return found if found is not None else "transformation"  # type: ignore[return-value]
    return UNKNOWN


def of_legacy_type(transformation_type: str | None) -> Kind:
    """The field-level `transformationType` of facets written before `transformations`."""
    return _OL_LEGACY.get((transformation_type or "").upper(), UNKNOWN)  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def of_text(text: str | None) -> Kind:
    """A transformation as a client wrote it: OpenLineage labels as this service writes
    them (`DIRECT/IDENTITY; INDIRECT/JOIN`), else a SQL expression; else unknown.
    Cached: a bulk request repeats a few texts many times, and parsing is the cost."""
    if text is None or not text.strip():
        return UNKNOWN
    labels = [part.strip() for part in text.split(";")]
    if all(_OL_LABEL.match(label) for label in labels):
        return most_revealing(_label_kind(label) for label in labels)
    return of_sql(text)


def _label_kind(label: str) -> Kind:
    head = label.split(":", 1)[0]
    type_, _, subtype = head.partition("/")
    return of_openlineage(type_, subtype or None, None)


@lru_cache(maxsize=4096)
def of_sql(expression: str | None, column: str | None = None, dialect: str | None = None) -> Kind:
    """A target column computed by `expression` (None: a plain copy). With `column`,
    only that source column's uses decide: in `concat(md5(email), name)` the email is
    masked, the name is not."""
    if expression is None:
        return "identity"
    try:
        tree = sqlglot.parse_one(expression, read=dialect)
    except Exception:  # sqlglot raises more than ParseError on odd text
        return UNKNOWN
    if tree is None:
        return UNKNOWN
    return of_tree(tree, column)


def of_tree(tree: exp.Expr, column: str | None = None) -> Kind:
    inner = _unwrapped(tree)
    if isinstance(inner, exp.Column | exp.Identifier):
        return "identity"
    uses = [c for c in inner.find_all(exp.Column) if not isinstance(c.this, exp.Star)]
    named = [c for c in uses if column is not None and c.name.lower() == column.lower()]
    uses = named or uses
    if not uses:
        return "aggregation" if _aggregating(inner) else "transformation"
    if all(_under(use, inner, _masks) for use in uses):
        return "masking"
    if all(_under(use, inner, _summarises) for use in uses):
        return "aggregation"
    return "transformation"


def of_use(top: exp.Expr, use: exp.Expr) -> Kind:
    """What the expression `top` does to the values of one column reference (or
    subquery) `use` inside it: the reference itself (or a cast of it) copies; under a
    hash or mask it masks; under a summarising aggregate it aggregates; else it
    transforms."""
    if _unwrapped(top) is use:
        return "identity"
    if _under(use, top, _masks):
        return "masking"
    if _under(use, top, _summarises):
        return "aggregation"
    return "transformation"


def compose(first: str, then: str) -> Kind:
    """Two mappings one after the other: the less revealing wins (a masked value copied
    stays masked; a copy of an aggregate is an aggregate)."""
    return max((_kind(first), _kind(then)), key=REVEALING.index)


def revealing(one: str, other: str) -> Kind:
    """Two ways from one source to one column: the more revealing wins."""
    return most_revealing((_kind(one), _kind(other)))


def _kind(value: str) -> Kind:
    return value if value in KINDS else UNKNOWN  # type: ignore[return-value]


def _unwrapped(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Alias | exp.Cast | exp.TryCast | exp.Paren):
        node = node.this
    return node


def _aggregating(node: exp.Expr) -> bool:
    return any(_summarises(f) for f in node.find_all(exp.AggFunc))


def _under(node: exp.Expr, top: exp.Expr, test: Callable[[exp.Func], bool]) -> bool:
    """Whether some function between `node` and `top` passes `test`."""
    current = node.parent
    while current is not None:
        if isinstance(current, exp.Func) and test(current):
            return True
        if current is top:
            return False
        current = current.parent
    return False


def _names(function: exp.Func) -> set[str]:
    """The function's names: as written (an unknown function), as sqlglot spells it in
    SQL, and its class (`SHA2Digest`, which postgres writes as `ENCODE(SHA256(x), 'hex')`)."""
    if isinstance(function, exp.Anonymous):
        return {str(function.name).lower()}
    return {function.sql_name().lower(), function.key}


def _masks(function: exp.Func) -> bool:
    return any(
        name in _MASKING_NAMES or name.startswith(_MASKING_PREFIXES) for name in _names(function)
    )


def _summarises(function: exp.Func) -> bool:
    if not isinstance(function, exp.AggFunc):
        return bool(_names(function) & {"approx_count_distinct"})
    return not _names(function) & _REVEALING_AGGREGATES
