"""An asset's audit trail on its History tab, and as a file: who changed what, named
as people read them (a token by its user and name), every version kept, CSV or JSON."""

from __future__ import annotations

import csv
import io

import httpx

from tests.support.dashboard import (
    create_token_in_dashboard,
    make_user,
    new_token_in,
    sign_in,
)
from tests.support.server import LiveServer


def written_by_a_person(live: LiveServer, admin: httpx.Client) -> None:
    """`audit.orders` created by the admin token, then renamed and given a column by
    the editor `maria` through a token she made, `loader`."""
    make_user(admin, "maria", "editor")
    with sign_in(live, "maria") as session:
        token = new_token_in(create_token_in_dashboard(session, "loader", "write").text)
    body = {"id": "audit.orders", "name": "orders", "type": "table"}
    assert admin.post("/assets", json=body).status_code == 201
    change = {"name": "orders_v2", "columns": [{"name": "id", "type": "bigint"}]}
    with httpx.Client(
        base_url=live.url + "/api/v1", headers={"Authorization": f"Bearer {token}"}
    ) as maria:
        assert maria.patch("/assets/audit.orders", json=change).status_code == 200


def test_the_history_tab_names_who_wrote_each_version(
    live: LiveServer, admin: httpx.Client
) -> None:
    written_by_a_person(live, admin)
    with sign_in(live, "maria") as session:
        page = session.get("/assets/audit.orders/history")
    assert page.status_code == 200
    assert "maria (token loader)" in page.text
    assert 'href="/assets/audit.orders/history/export?format=csv"' in page.text


def test_the_trail_downloads_as_csv_with_a_row_per_change(
    live: LiveServer, admin: httpx.Client
) -> None:
    written_by_a_person(live, admin)
    make_user(admin, "auditor", "viewer")
    with sign_in(live, "auditor") as session:
        answer = session.get("/assets/audit.orders/history/export")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert 'filename="history-audit.orders.csv"' in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    by_maria = [r for r in rows if r["who"] == "maria (token loader)"]
    assert {(r["version"], r["field"], r["column"], r["change"]) for r in by_maria} == {
        ("2", "name", "", "set"),
        ("2", "columns", "id", "added"),
    }
    assert next(r for r in by_maria if r["field"] == "name")["to"] == "orders_v2"
    assert {r["version"] for r in rows} == {"1", "2"}


def test_the_trail_downloads_as_json_and_refuses_other_formats(
    live: LiveServer, admin: httpx.Client
) -> None:
    written_by_a_person(live, admin)
    with sign_in(live, "maria") as session:
        answer = session.get("/assets/audit.orders/history/export", params={"format": "json"})
        assert answer.status_code == 200
        trail = answer.json()
        assert trail["asset"] == "audit.orders"
        assert [v["version"] for v in trail["versions"]] == [2, 1]
        assert trail["versions"][0]["who"] == "maria (token loader)"
        api = admin.get("/assets/audit.orders/history").json()["items"]
        assert [{k: v for k, v in t.items() if k != "who"} for t in trail["versions"]] == api
        refused = session.get("/assets/audit.orders/history/export", params={"format": "xml"})
        assert refused.status_code == 422
        assert "format: must be csv or json" in refused.text  # the page names the field
        assert session.get("/assets/never.was/history/export").status_code == 404
