"""The bulk request's fast path (`_plain_batch`) against the model path (`EdgeIn`): for
any list of items, both accept the same ones and write the same rows."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from service.domain.lineage import EdgeBatch, _plain_batch, validate_edges
from service.errors import Unprocessable
from service.models.lineage import MAX_TRANSFORMATION, EdgeIn

_MODEL = TypeAdapter(list[EdgeIn])

ids = st.sampled_from(["a", "b", "c.d", "s3://x/y", "é", "e\u0301", "", " x", "a b", "\u200bz"])
values = st.one_of(ids, st.none(), st.integers(), st.just(["a"]))
transformations = st.one_of(
    st.none(), st.sampled_from(["select 1", ""]), st.integers(), st.just("x" * 3)
)


@st.composite
def items(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 20)) == 0:
        return draw(st.sampled_from([None, 1, "edge", ["a", "b"]]))
    item: dict[str, Any] = {}
    if draw(st.integers(0, 15)):
        item["source"] = draw(st.one_of(ids, values))
    if draw(st.integers(0, 15)):
        item["target"] = draw(st.one_of(ids, values))
    if draw(st.booleans()):
        item["transformation"] = draw(transformations)
    if draw(st.integers(0, 12)) == 0:
        item[draw(st.sampled_from(["columns", "extra"]))] = None
    return item


def _by_model(batch: list[Any]) -> EdgeBatch | None:
    try:
        edges = _MODEL.validate_python(batch, strict=True)
    except ValidationError:
        return None
    if any(e.source == e.target for e in edges):
        return None
    return EdgeBatch.of(edges)


@settings(max_examples=400, deadline=None)
@given(st.lists(items(), min_size=1, max_size=8))
def test_the_fast_path_never_accepts_what_the_models_refuse_nor_writes_otherwise(
    batch: list[Any],
) -> None:
    fast = _plain_batch(batch)
    if fast is not None:
        assert fast == _by_model(batch)


def test_plain_requests_take_the_fast_path_and_fold_as_the_models_do() -> None:
    batch = [
        {"source": "b", "target": "c"},
        {"source": "a", "target": "b", "transformation": "select 1"},
        {"source": "a", "target": "b"},  # no transformation: the earlier one stands
        {"source": "b", "target": "c", "transformation": "x"},
        {"source": "b", "target": "c", "transformation": "y"},  # the last one given wins
    ]
    fast = _plain_batch(batch)
    assert fast is not None and fast == _by_model(batch)
    assert fast.rows == [
        {"source": "a", "target": "b", "transformation": "select 1"},
        {"source": "b", "target": "c", "transformation": "y"},
    ]
    assert fast.ids == ["a", "b", "c"] and fast.received == 5 and fast.columns == []


@pytest.mark.parametrize(
    "item",
    [
        {"source": "é", "target": "b"},  # not ASCII: the models normalise and decide
        {"source": "a", "target": "b", "columns": [{"source": "x", "target": "y"}]},
        {"source": "a", "target": "a"},
        {"source": "a", "target": "b", "transformation": "x" * (MAX_TRANSFORMATION + 1)},
        {"source": "a", "target": "b", "extra": 1},
    ],
)
def test_anything_else_goes_to_the_models(item: dict[str, Any]) -> None:
    assert _plain_batch([{"source": "p", "target": "q"}, item]) is None


def test_errors_are_named_by_the_models_whichever_item_stopped_the_fast_path() -> None:
    batch = [{"source": "a", "target": "b"}, {"source": "a", "target": 7}, {"source": "c"}]
    with pytest.raises(Unprocessable) as caught:
        validate_edges(batch, 100)
    assert {e.loc for e in caught.value.errors or ()} == {
        ("body", 1, "target"),
        ("body", 2, "target"),
    }


def test_a_non_ascii_id_is_stored_in_its_one_spelling() -> None:
    batch = validate_edges([{"source": "e\u0301", "target": "b"}], 10)
    assert batch.ids == ["b", "é"] and batch.rows[0]["source"] == "é"
