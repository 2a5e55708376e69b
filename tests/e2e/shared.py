"""What several browser tests share: the dbt project they upload, the pages' lineage
table and drawn graph as a test reads them, and the assets and edges they write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.e2e.conftest import Visitor

MANIFEST = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality" / "manifest.json"
MINUS = "\u2212"  # the mark of a removed node or edge
# `fin.ledger`, in the private domain `finance` (`private_finance`).
HIDDEN = ("fin.ledger", "General ledger")

REVENUE_SQL = (
    "insert into reporting.revenue\n"
    "select customer_id, sum(amount) as revenue from corner_shop.main_marts.orders group by 1;\n"
    "insert into reporting.broken select from where (;\n"
)


def upload_manifest(api: httpx.Client) -> dict[str, object]:
    answer = api.post(
        "/lineage/manifest",
        content=MANIFEST.read_bytes(),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text
    summary: dict[str, object] = answer.json()
    return summary


def lineage_rows(visitor: Visitor) -> dict[str, tuple[str, int]]:
    visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")
    rows = visitor.page.locator("[data-testid='lineage-nodes'] tbody tr")
    table = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        asset_id = cells.nth(0).locator("code").inner_text()
        table[asset_id] = (cells.nth(4).inner_text(), int(cells.nth(5).inner_text()))
    return table


def asset(api: httpx.Client, asset_id: str, **fields: Any) -> None:
    body = {"id": asset_id, "name": asset_id.split(".")[-1], "type": "table", **fields}
    answer = api.post("/assets", json=body)
    assert answer.status_code == 201, answer.text


def edge(api: httpx.Client, source: str, target: str, **fields: Any) -> None:
    answer = api.post("/lineage", json={"source": source, "target": target, **fields})
    assert answer.status_code == 201, answer.text


def graph_state(visitor: Visitor, element: str) -> dict[str, Any]:
    """A drawn element's change classes and the style cytoscape drew it with (the graph
    is a canvas: cytoscape keeps its instance on the container)."""
    found: dict[str, Any] = visitor.page.evaluate(
        """(id) => {
            const cy = document.querySelector("[data-lineage-canvas]")._cyreg.cy;
            const e = cy.getElementById(id);
            const style = e.isEdge()
              ? { line: e.style("line-style"), color: e.style("line-color") }
              : { line: e.style("border-style"), color: e.style("border-color"),
                  label: e.style("label") };
            return { drawn: e.length === 1, added: e.hasClass("added"),
                     removed: e.hasClass("removed"), ...style };
        }""",
        element,
    )
    return found


def private_finance(api: httpx.Client) -> None:
    """shop.raw -> fin.ledger -> shop.dash, fin.ledger in the private `finance` domain
    (every id under `fin.`), owned by a team nobody here belongs to."""
    for asset_id, name in (("shop.raw", "Raw orders"), (HIDDEN[0], HIDDEN[1])):
        body = {"id": asset_id, "name": name, "type": "table"}
        assert api.post("/assets", json=body).status_code == 201
    dash = {"id": "shop.dash", "name": "Dash", "type": "dashboard"}
    assert api.post("/assets", json=dash).status_code == 201
    for source, target in (("shop.raw", "fin.ledger"), ("fin.ledger", "shop.dash")):
        answer = api.post("/lineage", json={"source": source, "target": target})
        assert answer.status_code == 201, answer.text
    assert api.put("/teams/finance-team", json={}).status_code == 201
    domain = {
        "owner_team": "finance-team",
        "private": True,
        "rules": [{"kind": "namespace", "value": "fin."}],
    }
    assert api.put("/domains/finance", json=domain).status_code == 201, "domain"
    assert api.get("/assets/fin.ledger").json()["domain"] == "finance"
