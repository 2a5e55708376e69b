"""The lineage page's Export menu in a real browser: each file format downloads the
API's export of the view shown, and the drawn graph saves as an SVG that holds every
asset's label and as a PNG."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.support.dashboard import make_user

ROOT = "stg.orders"
ASSETS = {"raw.orders": "raw_orders", ROOT: "stg_orders", "mart.revenue": "revenue"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _graph(api: httpx.Client) -> None:
    for asset_id, name in ASSETS.items():
        body = {"id": asset_id, "name": name, "type": "table", "columns": [{"name": "id"}]}
        assert api.post("/assets", json=body).status_code == 201
    edges = [
        {"source": "raw.orders", "target": ROOT, "transformation": "select * from raw"},
        {"source": ROOT, "target": "mart.revenue", "columns": [{"source": "id", "target": "id"}]},
    ]
    assert api.post("/lineage/bulk", json=edges).status_code == 200


def _download(visitor: Visitor, control: str, role: str = "link") -> tuple[str, bytes]:
    page = visitor.page
    with page.expect_download() as started:
        page.get_by_role(role, name=control).click()  # type: ignore[arg-type]
    download = started.value
    return download.suggested_filename, Path(download.path()).read_bytes()


def test_the_export_menu_downloads_each_format_and_pictures_of_the_graph(
    visitor: Visitor, api: httpx.Client
) -> None:
    _graph(api)
    make_user(api, "exporter", "viewer")
    visitor.sign_in("exporter")
    visitor.open(f"/lineage/{quote(ROOT, safe='')}?depth=2&direction=both")
    visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")
    visitor.page.get_by_text("Export", exact=True).click()
    expect(visitor.page.get_by_role("button", name="Picture of the graph (SVG)")).to_be_visible()
    visitor.screenshot("lineage-export")

    name, body = _download(visitor, "OpenLineage events (JSON)")
    assert name == "lineage-stg.orders.json"
    events = json.loads(body)
    assert {e["job"]["name"] for e in events} == set(ASSETS)

    name, body = _download(visitor, "GraphViz DOT")
    assert name == "lineage-stg.orders.dot"
    assert '"raw.orders" -> "stg.orders"' in body.decode()

    name, body = _download(visitor, "Mermaid")
    assert body.decode().splitlines()[1] == "flowchart LR"

    name, body = _download(visitor, "CSV (spreadsheet)")
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert {r[1] for r in rows if r[0] == "node"} == set(ASSETS)
    assert ["column", ROOT, "mart.revenue", "", "id", "id"] in [r[:6] for r in rows]

    name, body = _download(visitor, "Picture of the graph (SVG)", "button")
    assert name == "lineage-stg.orders.svg"
    svg = ET.fromstring(body)  # noqa: S314 (our own page's output, parsed to check it)
    lines = {span.text for span in svg.iter("{http://www.w3.org/2000/svg}tspan")}
    assert set(ASSETS.values()) <= lines  # each asset's label, as drawn
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}line"))) == 2

    name, body = _download(visitor, "Picture of the graph (PNG)", "button")
    assert name == "lineage-stg.orders.png"
    assert body.startswith(PNG_SIGNATURE) and len(body) > 5_000
    assert not visitor.watch.errors
    assert not visitor.watch.foreign_requests
