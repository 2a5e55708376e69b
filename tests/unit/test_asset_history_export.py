"""The audit trail as a file: one CSV row per change, formula-safe, values that are not
text as JSON; actors named in words where they still name someone."""

from __future__ import annotations

import csv
import io

import orjson

from service.domain import actor_names
from service.domain.asset_history_export import csv_header, csv_rows, json_versions
from service.models.asset_history import AssetChange, AssetVersion

RENAMED = AssetVersion(
    version=2,
    at="2026-11-27T10:00:00.000000Z",
    actor="token:tok_1",
    deleted=False,
    changes=[
        AssetChange(field="name", change="set", **{"from": "orders", "to": "=HYPERLINK(1)"}),
        AssetChange(
            field="columns",
            column="id",
            change="retyped",
            **{"from": {"name": "id", "type": "int"}, "to": {"name": "id", "type": "bigint"}},
        ),
    ],
)
UNCHANGED = AssetVersion(
    version=1, at="2026-11-26T10:00:00.000000Z", actor="system", deleted=False, changes=[]
)


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_each_change_is_a_row_and_a_version_without_changes_is_one() -> None:
    rows = table(csv_header() + csv_rows([RENAMED, UNCHANGED], {"token:tok_1": "ann (token ci)"}))
    assert rows[0] == ["version", "at", "actor", "who", "deleted", "field", "column", "change",
                       "from", "to"]  # fmt: skip
    assert [r[0] for r in rows[1:]] == ["2", "2", "1"]
    assert rows[1][3] == "ann (token ci)"
    assert rows[3][3] == "" and rows[3][5:] == ["", "", "", "", ""]


def test_a_value_that_would_start_a_formula_is_text_and_a_column_is_json() -> None:
    rows = table(csv_rows([RENAMED], {}))
    assert rows[0][9] == "'=HYPERLINK(1)"
    assert orjson.loads(rows[1][9]) == {"name": "id", "type": "bigint"}
    assert rows[1][6:8] == ["id", "retyped"]


def test_json_keeps_the_apis_version_and_adds_who() -> None:
    (first,) = json_versions([RENAMED], {})
    version = orjson.loads(first)
    assert version["who"] is None
    assert version["changes"][0] == {
        "field": "name",
        "column": None,
        "change": "set",
        "from": "orders",
        "to": "=HYPERLINK(1)",
    }


def test_actors_split_into_tokens_and_users_and_read_as_words() -> None:
    assert actor_names.split(["token:b", "user:u", "system", "token:a", "token:a"]) == (
        ["a", "b"],
        ["u"],
    )
    assert actor_names.label("ann", "ci") == "ann (token ci)"
    assert actor_names.label("ann", None) == "ann"
    assert actor_names.label(None, "ci") == "token ci"
    assert actor_names.label(None, None) is None
