"""The query compiler for a caller from whom private domains are hidden: the starts,
filters, `through` assets, reached rows and path ends all test `$readable`; a global
admin's statement is the one compiled before (nothing added); stand-ins on paths are
numbered per answer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from service import cypher
from service.domain.query import Bounds, Compiled, compile_query
from service.domain.query.answer import number_hidden
from service.models.query import Query
from service.models.validation import validate

BOUNDS = Bounds(max_depth=50, max_limit=10_000, path_cap=10_000)
SHOWN = "coalesce({v}.domain_private, false) = false OR {v}.domain IN $readable"
BODIES: list[tuple[dict[str, Any], tuple[str, ...]]] = [
    ({"start": {"ids": ["a"]}}, ("n",)),
    ({"start": {"where": {"type": "table"}}, "return": "count"}, ("n",)),
    (
        {
            "start": {"ids": ["a"]},
            "traverse": {"max_depth": 3, "through": {"type": "table"}},
            "return": "graph",
        },
        ("s", "n", "hop_b"),
    ),
    ({"path": {"from": "a", "to": "b"}, "return": "paths"}, ("a", "b", "y")),
    ({"path": {"from": "a", "to": "b", "direction": "both"}, "return": "nodes"}, ("a", "b", "n")),
]


def compiled(body: dict[str, Any], readable: tuple[str, ...] | None) -> Compiled:
    return compile_query(validate(Query, body), BOUNDS, None, readable)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("body", "variables"), BODIES)
def test_every_asset_a_caller_meets_is_tested_against_its_readable_domains(
    body: dict[str, Any], variables: tuple[str, ...]
) -> None:
    result = compiled(body, ("finance", "hr"))
    assert result.params["readable"] == ["finance", "hr"]
    for variable in variables:
        assert SHOWN.format(v=variable) in flat(result.text), variable
    assert cypher.parse("t.t", result.text).params <= result.params.keys()


@pytest.mark.parametrize(("body", "variables"), BODIES)
def test_nothing_is_added_for_a_caller_who_reads_everything(
    body: dict[str, Any], variables: tuple[str, ...]
) -> None:
    result = compiled(body, None)
    assert "readable" not in result.params and "$readable" not in result.text
    assert "domain_private" not in result.text


def test_an_empty_readable_set_still_hides() -> None:
    result = compiled({"start": {"ids": ["a"]}}, ())
    assert result.params["readable"] == [] and SHOWN.format(v="n") in flat(result.text)


def test_hidden_assets_on_paths_are_numbered_stand_ins_per_answer() -> None:
    paths = [["a", ["4:x:1"], "b"], ["a", ["4:x:2"], ["4:x:1"], "b"]]
    assert number_hidden(paths) == [
        ["a", "redacted:1", "b"],
        ["a", "redacted:2", "redacted:1", "b"],
    ]
    assert number_hidden([["a", "b"]]) == [["a", "b"]]
