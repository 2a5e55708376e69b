"""A body with a flood of mistakes gets a short answer: at most 100 field errors,
`errors_omitted` counting the rest, and no validation work per unknown key."""

from __future__ import annotations

import httpx
import orjson


def test_hundreds_of_thousands_of_unknown_keys_get_a_short_422(reader: httpx.Client) -> None:
    flood = {f"k{i}": 0 for i in range(600_000)}
    body = orjson.dumps(flood)
    assert len(body) > 7_000_000  # most of the 10 MiB a body may hold
    answer = reader.post("/query", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    problem = answer.json()
    assert len(problem["errors"]) == 100
    assert problem["errors_omitted"] == 600_000 - 100
    assert problem["errors"][0] == {
        "loc": ["body", "k0"],
        "msg": "Extra inputs are not permitted",
        "type": "extra_forbidden",
    }
    assert len(answer.content) < 20_000


def test_a_bulk_of_bad_edges_lists_the_first_hundred(writer: httpx.Client) -> None:
    edges = [{"source": "a", "target": "b", "oops": i} for i in range(5_000)]
    answer = writer.post("/lineage/bulk", json=edges)
    assert answer.status_code == 422
    problem = answer.json()
    assert len(problem["errors"]) == 100
    assert problem["errors_omitted"] == 4_900
    assert problem["errors"][0]["loc"] == ["body", 0, "oops"]
    assert writer.get("/lineage/edges").json()["items"] == []


def test_a_few_mistakes_are_all_listed(writer: httpx.Client) -> None:
    answer = writer.post("/assets", json={"id": "x", "name": "x", "type": "table", "a": 1, "b": 2})
    assert answer.status_code == 422
    problem = answer.json()
    assert {tuple(e["loc"]) for e in problem["errors"]} == {("body", "a"), ("body", "b")}
    assert "errors_omitted" not in problem
