"""Hypothesis settings and strategies for fuzzing the parsers of untrusted input:
random JSON (scalars, nested values, values nested as deep as orjson reads) and
mutations of real documents (keys deleted or given another value at random depths)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.support.dbt_fixtures import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# GOVERNANCE_FUZZ_EXAMPLES=5000 runs a longer hunt locally; CI keeps the default.
EXAMPLES = int(os.environ.get("GOVERNANCE_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
HEAVY = settings(FUZZ, max_examples=max(EXAMPLES * 2 // 5, 1))

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)  # what orjson reads
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)
# Uploads are read by orjson, which takes nesting up to 1024 levels (deeper than
# Python's recursion limit): such a value may sit anywhere in a manifest.
deep_values = st.builds(
    lambda depth, kinds, leaf: nest(depth, kinds, leaf),
    st.sampled_from([2, 50, 500, 1000]),
    st.sampled_from(["list", "dict", "mixed"]),
    scalars,
)


def nest(depth: int, kinds: str, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        as_list = kinds == "list" or (kinds == "mixed" and level % 2 == 0)
        value = [value] if as_list else {"name": value}
    return value


json_objects = st.dictionaries(st.text(max_size=12), json_values, max_size=6)


def _paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in the document (a fixture's structure, where mutations land)."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _paths(value, (*prefix, index))
    return found


_DELETE = object()


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy with the value at `path` replaced (or deleted); only the containers on
    the path are copied, so the fixture itself is never changed."""
    if not path:
        return document if value is _DELETE else value
    head, rest = path[0], path[1:]
    if isinstance(document, dict) and (head in document or not rest):
        copy = dict(document)
        if not rest and value is _DELETE:
            copy.pop(head, None)
        else:
            copy[head] = replaced(copy.get(head), rest, value)
        return copy
    if isinstance(document, list) and isinstance(head, int) and head < len(document):
        items = list(document)
        if not rest and value is _DELETE:
            del items[head]
        else:
            items[head] = replaced(items[head], rest, value)
        return items
    return document


def mutations(document: Any, most: int = 4) -> st.SearchStrategy[Any]:
    """The document with 1 to `most` keys deleted or given another (random) value;
    paths through fixed structural keys are listed first so that shrinking heads there."""
    paths = sorted(_paths(document), key=len)
    edit = st.tuples(st.sampled_from(paths), st.just(_DELETE) | json_values | deep_values)

    def build(edits: list[tuple[tuple[Any, ...], Any]]) -> Any:
        mutated = document
        for path, value in edits:
            mutated = replaced(mutated, path, value)
        return mutated

    return st.lists(edit, min_size=1, max_size=most).map(build)


# Real manifests to mutate: our quality project, and the corner shop at v4 and v12.
MANIFESTS = [
    load(FIXTURES / "dbt_quality" / "manifest.json"),
    load(FIXTURES / "dbt_versions" / "manifest_v4_dbt1.0.9.json.gz"),
    load(FIXTURES / "dbt_versions" / "manifest_v12_dbt1.11.16.json.gz"),
]
