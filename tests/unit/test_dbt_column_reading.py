"""A node's columns are read by a quick path for the usual shape and a checked path
for any other: both give the same columns, and odd values the checked path's error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.dbt.assets import _column, _columns
from service.domain.dbt.contents import ManifestError

LOC = ("nodes", "model.p.m")
FIELD = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "id", "int", "PII", "a b"]),
    st.integers(),
    st.booleans(),
    st.lists(st.sampled_from(["pii", "", "pii", "x"]), max_size=3),
    st.lists(st.one_of(st.integers(), st.text(max_size=2)), max_size=2),
    st.dictionaries(st.just("tags"), st.lists(st.sampled_from(["pii", "y", ""]), max_size=3)),
    st.dictionaries(st.just("tags"), st.one_of(st.integers(), st.text(max_size=2))),
)
COLUMN = st.one_of(
    st.dictionaries(
        st.sampled_from(["name", "data_type", "description", "tags", "config", "meta"]), FIELD
    ),
    FIELD,
)


def _checked(columns: dict[str, Any]) -> tuple[Any, ...] | tuple[str, tuple[Any, ...]]:
    try:
        return tuple(_column(key, value, LOC) for key, value in columns.items())
    except ManifestError as exc:
        return exc.msg, exc.loc


def _read(columns: dict[str, Any]) -> tuple[Any, ...] | tuple[str, tuple[Any, ...]]:
    try:
        return _columns({"columns": columns}, LOC)
    except ManifestError as exc:
        return exc.msg, exc.loc


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), COLUMN, max_size=3))
def test_the_quick_path_answers_as_the_checked_one(columns: dict[str, Any]) -> None:
    assert _read(columns) == _checked(columns)


def test_a_usual_column_is_read_with_its_tags_once() -> None:
    column = {
        "name": "id",
        "data_type": " ",
        "description": "",
        "tags": ["pii", "pii"],
        "config": {"tags": ["key", "pii"]},
    }
    (read,) = _columns({"columns": {"id": column}}, LOC)
    assert (read.name, read.type, read.description, read.tags) == ("id", None, None, ("pii", "key"))


def test_an_odd_column_names_where_it_is_odd() -> None:
    with pytest.raises(ManifestError) as refused:
        _columns({"columns": {"id": {"name": "id", "tags": ["x", 3]}}}, LOC)
    assert refused.value.loc == (*LOC, "columns", "id", "tags", 1)
