"""Where stand-ins sit on a traversal page, without a database: at each distance after
the readable nodes, so their place tells nothing of how a hidden id sorts against the
readable ones, and among themselves by keys the walk's keyed shuffle gives them, so not
against each other either; the cursor carries that order."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.fernet import Fernet

from service.domain.cursor import encode_cursor
from service.domain.cursor_seal import CursorSeal
from service.domain.fanout import Reach, fanout_page
from service.domain.lineage_pages import (
    SHUFFLE_MODULUS,
    UNSHUFFLED,
    After,
    Page,
    Walk,
    assemble_page,
    decode,
    encode,
    position,
    shuffle_for,
    take,
    unreadable_in,
)
from service.domain.redaction import renamed_caps, sorted_as_shown
from service.errors import BadRequest

FIXED_KEY = "7T3PgeCPr0ynJ8pw0SIlRdrHpcd4bU9CGqbOaEcC4bU="  # a Fernet key, for tests only
READABLE = ("mine",)  # the private domains the outsider may read
WALK = Walk("r", "downstream", 3)


def _node(node_id: str, distance: int, domain: str | None = None) -> dict[str, Any]:
    """A node; domains named `secret*` are private ones the outsider may not read."""
    private = domain is not None and (domain.startswith("secret") or domain == "mine")
    return {
        "id": node_id,
        "name": node_id,
        "type": "table",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": distance,
        "direction": "downstream",
        "domain": domain,
        "private": private,
        "standin_key": ord(node_id[0]),  # as the statements return it; here the id's order
    }


ROOT = _node("r", 0)
# ids interleave: hidden b, d, f among readable a, c, e, g at distance 1; hidden h at 2
NODES = [
    _node("a", 1),
    _node("b", 1, "secret"),
    _node("c", 1, "mine"),
    _node("d", 1, "secret2"),
    _node("e", 1, "public"),
    _node("f", 1, "secret"),
    _node("g", 1),
    _node("h", 2, "secret"),
    _node("i", 2),
]


def test_a_node_sorts_by_distance_then_readable_first_then_id() -> None:
    ordered = sorted(NODES, key=lambda n: position(n, READABLE))
    assert [n["id"] for n in ordered] == ["a", "c", "e", "g", "b", "d", "f", "i", "h"]
    assert position(NODES[1], READABLE) == (1, True, ord("b"))
    assert position(NODES[2], READABLE) == (1, False, "c")


# The walk statements return each node's shuffled key; the stand-ins' keys sort against
# their ids' order.
KEYS = {"a": 9, "b": 3, "c": 0, "d": 1, "e": 8, "f": 2, "g": 7, "h": 5, "i": 4}
KEYED = [{**n, "standin_key": KEYS[n["id"]]} for n in NODES]


def test_stand_ins_sort_by_their_shuffled_keys_readable_nodes_by_id() -> None:
    """Among themselves the stand-ins follow their keys, not their hidden ids; the keys
    of readable nodes play no part (nor do keys for a caller who reads everything)."""
    ordered = sorted(KEYED, key=lambda n: position(n, READABLE))
    assert [n["id"] for n in ordered] == ["a", "c", "e", "g", "d", "f", "b", "i", "h"]
    assert position(KEYED[1], READABLE) == (1, True, 3)
    assert [n["id"] for n in sorted(KEYED, key=lambda n: position(n, None))] == list("abcdefghi")


def test_for_a_caller_who_reads_everything_the_order_is_distance_then_id() -> None:
    ordered = sorted(NODES, key=lambda n: position(n, None))
    assert [n["id"] for n in ordered] == ["a", "b", "c", "d", "e", "f", "g", "h", "i"]


def test_a_shuffle_gives_distinct_nodes_distinct_keys_and_each_walk_its_own() -> None:
    """A keyed affine map modulo a prime above every node id: a permutation, drawn from
    the secret and the walk, so the same walk pages alike and another one does not."""
    seal = CursorSeal([FIXED_KEY])  # a fixed key: the same draw on every run
    shuffle = shuffle_for(WALK, seal)
    assert shuffle == shuffle_for(WALK, seal)
    assert shuffle != shuffle_for(Walk("r", "downstream", 4), seal)
    assert shuffle != shuffle_for(WALK, CursorSeal([Fernet.generate_key().decode()]))
    assert 0 < shuffle.multiplier < SHUFFLE_MODULUS and 0 <= shuffle.offset < SHUFFLE_MODULUS
    ids = [*range(10_000), 2**35 - 1]  # Neo4j 5's node ids stay below 2**35
    keys = [shuffle.key(i) for i in ids]
    assert len(set(keys)) == len(ids)
    rising = sum(1 for a, b in itertools.pairwise(keys) if a < b)
    assert 0.3 < rising / len(keys) < 0.7  # far from the ids' own order (it rises always)


def test_the_statements_key_is_the_shuffles_within_64_bit_integers() -> None:
    """The walk statements multiply by the multiplier's two halves (Cypher has no wider
    integer): the same key, each product below 2**63 for any id below 2**40."""
    shuffle = shuffle_for(WALK, CursorSeal([FIXED_KEY]))
    high, low, offset, modulus, bound = shuffle.params()
    for node_id in (0, 1, 12_345, 2**35 - 1, 2**40 - 1):
        products = (node_id * high, (node_id * high % modulus) * bound, node_id * low)
        assert max(products) + modulus < 2**63
        as_cypher = (
            (node_id * high % modulus) * bound % modulus + node_id * low + offset
        ) % modulus
        assert as_cypher == shuffle.key(node_id)
    assert shuffle_for(WALK, None) == shuffle_for(WALK, None) != UNSHUFFLED  # the process's


def test_hidden_is_what_redaction_hides() -> None:
    """A private flag without a domain hides nothing (`domain_rules.can_read`)."""
    assert not unreadable_in({"domain": None, "private": True}, READABLE)
    assert not unreadable_in({"domain": "mine", "private": True}, READABLE)
    assert not unreadable_in({"domain": "open", "private": False}, READABLE)
    assert unreadable_in({"domain": "secret", "private": True}, READABLE)
    assert not unreadable_in({"domain": "secret", "private": True}, None)


def test_a_page_shows_stand_ins_after_the_readable_nodes_and_ends_at_the_walks_last() -> None:
    taken = sorted(NODES[:7], key=lambda n: position(n, READABLE))[:5]  # a c e g b
    page = assemble_page(
        WALK,
        ROOT,
        After(),
        list(reversed(taken)),
        [],
        {"downstream": 9},
        {"downstream": 0},
        READABLE,
    )
    assert [n["id"] for n in page.nodes] == ["r", "a", "c", "e", "g", "b"]
    # the position is the walk's last node (given in reverse here: "a")
    assert page.after.downstream == (1, False, "a")


def test_a_cursor_holds_whether_its_position_is_a_stand_in() -> None:
    after = After((1, True, ord("b")), None, started=True)
    assert decode(encode(WALK, after), WALK) == after


@pytest.mark.parametrize("position_", [[1, "b"], [1, "true", "b"], [1, 0, "b"], [1, True, 2]])
def test_a_cursor_position_of_another_shape_is_refused(position_: list[Any]) -> None:
    cursor = encode_cursor(
        {"walk": WALK.identity(), "after": {"downstream": position_, "upstream": None}}
    )
    with pytest.raises(BadRequest) as caught:
        decode(cursor, WALK)
    assert caught.value.code == "invalid_cursor"


def test_a_stand_in_position_whose_key_is_no_number_is_refused() -> None:
    cursor = encode_cursor(
        {"walk": WALK.identity(), "after": {"downstream": [1, True, "k:b"], "upstream": None}}
    )
    with pytest.raises(BadRequest) as caught:
        decode(cursor, WALK)
    assert caught.value.code == "invalid_cursor" and "cannot be decoded" in caught.value.detail


def test_a_cursor_from_the_version_ordering_by_distance_and_id_says_to_start_again() -> None:
    cursor = encode_cursor(
        {"walk": WALK.identity(), "after": {"downstream": [1, "b"], "upstream": None}}
    )
    with pytest.raises(BadRequest) as caught:
        decode(cursor, WALK)
    assert "earlier version" in caught.value.detail


def _reach(nodes: list[dict[str, Any]]) -> Reach:
    reach = Reach("downstream", "r")
    near = [n for n in nodes if n["distance"] == 1]
    reach.expand("r", [_kept(n) for n in near], len(near), 1)
    reach.expand("g", [_kept(n) for n in nodes if n["distance"] == 2], 2, 2)
    return reach


def _kept(node: dict[str, Any]) -> dict[str, Any]:
    shape = {k: v for k, v in node.items() if k not in ("distance", "direction")}
    return {"node": shape, "owners": [], "transformation": None}


def _fanout_pages(
    walk: Walk, limit: int, readable: tuple[str, ...] | None, nodes: list[dict[str, Any]] = NODES
) -> Iterator[Page]:
    after = After()
    while True:
        page = fanout_page(walk, ROOT, [_reach(nodes)], after, take(limit, after), readable)
        yield page
        if not page.more:
            return
        after = decode(encode(walk, page.after), walk)


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
def test_capped_walk_pages_concatenate_to_the_one_page_order(limit: int) -> None:
    walk = Walk("r", "downstream", 3, fanout=10)
    for readable, expected in (
        (READABLE, ["r", "a", "c", "e", "g", "b", "d", "f", "i", "h"]),
        (None, ["r", "a", "b", "c", "d", "e", "f", "g", "h", "i"]),
    ):
        pages = list(_fanout_pages(walk, limit, readable))
        assert [n["id"] for p in pages for n in p.nodes] == expected


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
def test_capped_walk_pages_order_stand_ins_by_their_keys(limit: int) -> None:
    walk = Walk("r", "downstream", 3, fanout=10)
    pages = list(_fanout_pages(walk, limit, READABLE, KEYED))
    assert [n["id"] for p in pages for n in p.nodes] == [
        "r", "a", "c", "e", "g", "d", "f", "b", "i", "h",
    ]  # fmt: skip


def test_edges_and_cuts_sort_by_the_ids_the_caller_sees() -> None:
    renamed = {"fin.b": "redacted:1"}
    edges: list[dict[str, Any]] = [
        {"source": "r", "target": "a", "transformation": None},
        {"source": "r", "target": "redacted:1", "transformation": None},  # was r -> fin.b
        {"source": "r", "target": "g", "transformation": "x"},
    ]
    assert [e["target"] for e in sorted_as_shown(edges)] == ["a", "g", "redacted:1"]
    capped = [
        {"id": "a", "direction": "downstream", "shown": 1, "total": 2},
        {"id": "fin.b", "direction": "downstream", "shown": 1, "total": 2},
        {"id": "g", "direction": "downstream", "shown": 1, "total": 2},
    ]
    assert [c["id"] for c in renamed_caps(capped, renamed)] == ["a", "g", "redacted:1"]
