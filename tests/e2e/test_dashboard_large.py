"""A large neighbourhood in a real browser: a wide column draws as groups with their
counts, a group expands into a grid of boxes that do not overlap and collapses again,
search finds a node inside a collapsed group, and the path highlight runs through the
groups that hold a path's nodes."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, Visitor
from tests.support.dashboard import make_user

ROOT = "big.root"
FINAL = "mart.final"
# 1,512 assets one hop downstream of the root, on three platforms (their datasets'
# namespaces), three upstream, and one asset two hops down behind one of them.
FAN_OUT = {"snowflake://acct": 1_200, "bigquery://proj": 250, "postgres://db": 62}
CHUNK = 100  # edges per bulk request: each records history too, on a busy machine


def table(namespace: str, i: int) -> dict[str, str]:
    return {"namespace": namespace, "name": f"shop.sales.t{i:04d}"}


def push_fan_out(api: httpx.Client) -> None:
    edges: list[dict[str, Any]] = []
    i = 0
    for namespace, count in FAN_OUT.items():
        for _ in range(count):
            edges.append({"source": ROOT, "target": table(namespace, i)})
            i += 1
    edges += [{"source": f"big.up{k}", "target": ROOT} for k in range(3)]
    edges.append({"source": table("snowflake://acct", 5), "target": FINAL})
    for start in range(0, len(edges), CHUNK):
        answer = api.post("/lineage/bulk", json=edges[start : start + CHUNK])
        assert answer.status_code in (200, 201), answer.text


def graph(visitor: Visitor, script: str) -> Any:
    """`script` run with `cy`, the drawn graph (cytoscape keeps it on its container)."""
    return visitor.page.evaluate(
        f"() => {{ const cy = document.querySelector('[data-lineage-canvas]')._cyreg.cy; {script} }}"
    )


def click_graph(visitor: Visitor, element: str) -> None:
    x, y = graph(
        visitor,
        f"""const at = cy.getElementById({element!r}).renderedBoundingBox();
            const box = cy.container().getBoundingClientRect();
            return [box.left + (at.x1 + at.x2) / 2, box.top + at.y1 + 8];""",
    )
    visitor.page.mouse.click(x, y)


def shot(visitor: Visitor, name: str) -> None:
    """The viewport only: a full-page capture stretches the canvas (70vh) over a page
    holding 500-row tables, which takes cytoscape longer to draw than a test waits."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    visitor.page.locator("[data-lineage-canvas]").scroll_into_view_if_needed()
    visitor.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def ready(visitor: Visitor) -> None:
    visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")


def group_of(visitor: Visitor, platform: str) -> str:
    found: str = graph(
        visitor,
        f"return cy.nodes('.group').filter(n => n.data('label').includes('on {platform}'))[0].id();",
    )
    return found


GROUPS = [
    "1,200 assets\non snowflake, 1 downstream",
    "250 assets\non bigquery, 1 downstream",
    "62 assets\non postgres, 1 downstream",
]


def group_labels(visitor: Visitor) -> list[str]:
    return sorted(graph(visitor, "return cy.nodes('.group').map(n => n.data('label'));"))


def overlapping(visitor: Visitor) -> int:
    """Pairs of drawn asset boxes that overlap (sorted by left edge, so near-linear)."""
    found: int = graph(
        visitor,
        """const boxes = cy.nodes('[kind = "node"]').map(n => n.boundingBox()).sort((a, b) => a.x1 - b.x1);
           let pairs = 0;
           boxes.forEach((a, i) => {
             for (let j = i + 1; j < boxes.length && boxes[j].x1 < a.x2; j += 1) {
               const b = boxes[j];
               if (b.y1 < a.y2 && a.y1 < b.y2) pairs += 1;
             }
           });
           return pairs;""",
    )
    return found


def test_a_wide_fan_out_draws_as_groups_that_expand_into_a_grid_and_collapse(
    visitor: Visitor, api: httpx.Client
) -> None:
    push_fan_out(api)
    make_user(api, "explorer", "viewer")
    visitor.sign_in("explorer")
    visitor.open(f"/lineage/{ROOT}?depth=2")
    ready(visitor)
    status = visitor.page.locator("[data-lineage-status]")
    expect(status).to_contain_text("1,517 assets")
    expect(status).to_contain_text("drawn as 3 groups (3 collapsed)")
    assert group_labels(visitor) == GROUPS
    assert graph(visitor, "return cy.nodes().length;") == 8  # root, 3 up, 3 groups, final
    # 3 up -> root, root -> each group (counting its edges), snowflake -> final
    edges = graph(visitor, "return cy.edges().map(e => e.data('count'));")
    assert sorted(edges) == [1, 1, 1, 1, 62, 250, 1_200]
    shot(visitor, "lineage-large-grouped")

    snowflake = group_of(visitor, "snowflake")
    click_graph(visitor, snowflake)
    ready(visitor)
    expect(status).to_contain_text("(2 collapsed)")
    assert graph(visitor, f"return cy.getElementById({snowflake!r}).children().length;") == 101
    more = graph(visitor, "return cy.nodes('.more').map(n => n.data('text'));")
    assert more == ["1,100 more"]
    assert overlapping(visitor) == 0
    shot(visitor, "lineage-large-expanded")

    click_graph(visitor, f"{snowflake}\x02more")
    ready(visitor)
    assert graph(visitor, f"return cy.getElementById({snowflake!r}).children().length;") == 201
    assert overlapping(visitor) == 0

    click_graph(visitor, snowflake)  # the frame's title: collapse
    ready(visitor)
    expect(status).to_contain_text("(3 collapsed)")
    assert graph(visitor, "return cy.nodes().length;") == 8
    assert not visitor.watch.errors


def test_search_finds_a_node_inside_a_collapsed_group_and_the_path_runs_through_groups(
    visitor: Visitor, api: httpx.Client
) -> None:
    push_fan_out(api)
    make_user(api, "seeker", "viewer")
    visitor.sign_in("seeker")
    visitor.open(f"/lineage/{ROOT}?depth=2")
    ready(visitor)
    find = visitor.page.get_by_role("search", name="Find in the graph")
    find.get_by_label("Find in graph").fill("t0777")
    find.get_by_role("button", name="Find").click()
    found = visitor.page.locator("[data-lineage-find-status]")
    expect(found).to_have_text("1 match: T0777 (downstream, 1 hop)")
    assert graph(visitor, "return cy.nodes('.found').map(n => n.data('title'));") == ["T0777"]
    assert group_labels(visitor)[0] == "1,199 assets\non snowflake, 1 downstream"
    path = visitor.page.locator("[data-lineage-path]")
    expect(path).to_have_text(f"Path: {ROOT} → T0777")
    shot(visitor, "lineage-large-found")

    # The final asset is behind t0005, which stays in its collapsed group: the path is
    # drawn through the group, and said in the assets' own names.
    visitor.page.get_by_role("button", name="Show all 1,517 assets").click()
    nodes = visitor.page.get_by_test_id("lineage-nodes")
    nodes.get_by_role("link", name=FINAL).hover()
    expect(path).to_have_text(f"Path: {ROOT} → T0005 → {FINAL}")
    on_path = graph(visitor, "return cy.nodes('.on-path').map(n => n.data('kind')).sort();")
    assert on_path == ["group", "node", "node"]
    assert not visitor.watch.errors


def test_load_more_adds_each_further_page_to_the_drawn_groups(
    visitor: Visitor, api: httpx.Client
) -> None:
    push_fan_out(api)
    make_user(api, "pager", "viewer")
    visitor.sign_in("pager")
    visitor.open(f"/lineage/{ROOT}?depth=2&limit=500")
    ready(visitor)
    status = visitor.page.locator("[data-lineage-status]")
    more = visitor.page.locator("[data-lineage-more]")
    expect(status).to_contain_text("500 assets")
    expect(more).to_contain_text("1,017 more downstream —")
    pages = 1
    while more.is_visible():
        more.get_by_role("button", name="Load more").click()  # ready turns false at once
        ready(visitor)
        pages += 1
        expect(status).to_contain_text(f"{min(500 * pages, 1_517):,} assets")
    assert pages == 4
    expect(status).to_contain_text("1,517 assets, 1,516 edges")
    assert group_labels(visitor) == GROUPS
    assert graph(visitor, "return cy.nodes().length;") == 8
    assert not visitor.watch.errors
