"""Pages of a lineage traversal: what a walk is (root, direction, depth, as_of, filters,
fan-out), the cursor that continues it, and one page assembled from the rows a walk
statement returns.

A page is the next nodes in (distance, hidden, key) order after each side's position,
so every node of the neighbourhood comes once across pages. `hidden` says the caller may
not read the node (it comes back as a stand-in): at each distance the stand-ins follow
the readable nodes, since where a hidden id sorted among readable ones would tell of
it. A readable node's key is its id; a stand-in's is its node's internal id under a
keyed permutation drawn for the walk (`Shuffle`), so the stand-ins' order among
themselves tells nothing of their ids either. The cursor holds each side's last
(distance, hidden, key) with the walk it was made for, so a cursor used with other
parameters is refused naming the first that differs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Protocol

import orjson

from service.domain.access.principal import StaleAccess
from service.domain.cursor import decode_cursor, encode_cursor
from service.domain.cursor_seal import CursorSeal
from service.errors import BadRequest, NotFound, invalid_token

SIDES = ("downstream", "upstream")
FILTERS = ("type", "platform", "tag", "owner")
Position = tuple[int, bool, str | int]  # (distance, hidden, key): an id, a stand-in's int
STANDIN = "k:"  # marks a stand-in's key in a cursor (one from before keys held its id)
# A stand-in's key is (node id * multiplier + offset) mod SHUFFLE_MODULUS, which the walk
# statement computes from the node itself: no property to store or read. The modulus, the
# least prime above 2**40, exceeds every node id Neo4j 5 hands out (below 2**35), so
# distinct nodes get distinct keys. The multiplier is any number below the modulus (a
# small one would keep ids in order); the statement multiplies in two 20-bit halves of
# it, so no product leaves Cypher's 64-bit integers.
SHUFFLE_MODULUS = 1_099_511_627_791
HALF_BITS = 20
Node = dict[str, Any]
_BY_ENDS = itemgetter("source", "target")


@dataclass(frozen=True)
class Filters:
    """Which walked nodes are shown: any of each given list, all given lists."""

    type: tuple[str, ...] = ()
    platform: tuple[str, ...] = ()
    tag: tuple[str, ...] = ()
    owner: tuple[str, ...] = ()

    def given(self) -> dict[str, list[str]]:
        return {name: sorted(set(getattr(self, name))) for name in FILTERS if getattr(self, name)}

    def digests(self) -> dict[str, str]:
        """Each given filter as a short digest: a cursor stays short, and a differing
        one is still named."""
        return {
            name: hashlib.sha256(orjson.dumps(values)).hexdigest()[:16]
            for name, values in self.given().items()
        }

    def params(self) -> dict[str, list[str] | None]:
        """The walk statement's parameters: a list per filter, null when not given."""
        given = self.given()
        return {f"{name}s": given.get(name) for name in FILTERS}

    def shows(self, node: Mapping[str, Any], readable: Container[str] | None = None) -> bool:
        """The same test as the walk statement's, for a node with `owners`, `domain` and
        `private` beside its shape. `readable`: the private domains the caller may read
        (None: all); with filters given, an asset of another private domain is never
        shown, since whether it matches would tell of it (it is walked through and
        counted as hidden, as one the filters hid)."""
        if unreadable_in(node, readable):
            return not any(getattr(self, name) for name in FILTERS)
        return (
            (not self.type or node["type"] in self.type)
            and (not self.platform or node["platform"] in self.platform)
            and (not self.tag or any(t in self.tag for t in node["tags"]))
            and (not self.owner or any(o in self.owner for o in node.get("owners") or ()))
        )


@dataclass(frozen=True)
class Walk:
    """What a page continues: a cursor made for one walk is refused by another."""

    root: str
    direction: str
    depth: int
    as_of: str | None = None
    filters: Filters = field(default_factory=Filters)
    fanout: int | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(s for s in SIDES if self.direction in (s, "both"))

    def identity(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "direction": self.direction,
            "depth": self.depth,
            "as_of": self.as_of,
            "filters": self.filters.digests(),
            "fanout": self.fanout,
        }


NO_FILTERS = Filters()


@dataclass(frozen=True)
class Shuffle:
    """The keyed permutation that orders a walk's stand-ins among themselves."""

    multiplier: int = 1
    offset: int = 0

    def params(self) -> list[int]:
        """[high half, low half of the multiplier, offset, modulus, the low half's bound]:
        the statements' key is ((id * high % modulus) * bound % modulus + id * low +
        offset) % modulus."""
        bound = 1 << HALF_BITS
        high, low = divmod(self.multiplier, bound)
        return [high, low, self.offset, SHUFFLE_MODULUS, bound]

    def key(self, node_id: int) -> int:
        """A node's key as the walk statements compute it (`id(n)` is `node_id`)."""
        return (node_id * self.multiplier + self.offset) % SHUFFLE_MODULUS


UNSHUFFLED = Shuffle()  # internal id order: for statements run where nothing is hidden


def unreadable_in(node: Mapping[str, Any], readable: Container[str] | None) -> bool:
    """Whether `node` (with its `domain` and `private`) lies in a private domain outside
    `readable`, the private domains the caller may read (None: all): the walk
    statement's `hidden`, and `redaction.unreadable` for the caller `readable` is of."""
    domain = node.get("domain")
    return (
        readable is not None
        and bool(node.get("private"))
        and domain is not None
        and domain not in readable
    )


def position(node: Mapping[str, Any], readable: Container[str] | None) -> Position:
    """A node's place in a page's order (`lineage.traverse`'s ORDER BY): nearest first,
    at each distance the readable nodes by id, then the stand-ins by their shuffled key
    (`standin_key`, which the walk statements return for each node); code point order
    here, the positions a cursor holds come from the walk's own order."""
    hidden = unreadable_in(node, readable)
    key = node.get("standin_key") if hidden else None
    return node["distance"], hidden, node["id"] if key is None else key


_IDENTITY = ("root", "direction", "depth", "as_of", "filters", "fanout")
# The query parameter a differing part of the walk is named by in the 400.
_PARAMETER = {"root": "asset_id"}


@dataclass(frozen=True)
class After:
    """Each side's last returned (distance, hidden, key); None before its first node.
    `started` says the root was already returned (every page after the first)."""

    downstream: Position | None = None
    upstream: Position | None = None
    started: bool = False

    def of(self, side: str) -> Position | None:
        return self.downstream if side == "downstream" else self.upstream

    def params(self) -> dict[str, list[Any] | None]:
        return {
            "after_down": list(self.downstream) if self.downstream else None,
            "after_up": list(self.upstream) if self.upstream else None,
        }


class Seal(Protocol):
    """Encrypts a stand-in's position, which would otherwise let two cursors be told to
    stop at the same hidden asset, and draws each walk's shuffle from the same secret
    (`service.domain.cursor_seal`)."""

    def seal(self, asset_id: str) -> str: ...

    def open(self, value: str) -> str | None: ...

    def shuffle(self, walk: bytes, modulus: int) -> tuple[int, int]: ...


_PROCESS_SEAL = CursorSeal(())


def shuffle_for(walk: Walk, seal: Seal | None) -> Shuffle:
    """The walk's shuffle of its stand-ins, the same on each of its pages. Without a
    seal (a one-page answer: an export, the asset page's neighbourhood), one drawn
    from this process's own key."""
    identity = orjson.dumps(walk.identity(), option=orjson.OPT_SORT_KEYS)
    return Shuffle(*(seal or _PROCESS_SEAL).shuffle(identity, SHUFFLE_MODULUS))


def encode(walk: Walk, after: After, seal: Seal | None = None) -> str:
    """The cursor; a stand-in's position (its key, marked) is sealed."""

    def written(p: Position | None) -> list[Any] | None:
        if p is None:
            return None
        if not p[1]:
            return [p[0], p[1], p[2]]
        marked = f"{STANDIN}{p[2]}"
        return [p[0], p[1], seal.seal(marked) if seal is not None else marked]

    position = {side: written(after.of(side)) for side in SIDES}
    return encode_cursor({"walk": walk.identity(), "after": position})


def decode(cursor: str | None, walk: Walk, seal: Seal | None = None) -> After:
    """The positions a cursor holds for `walk`; none: the first page. 400
    `invalid_cursor` when it does not decode, was made for another walk (the detail
    names the parameter that differs) or by a version that ordered pages otherwise:
    by (distance, id) alone (its positions are [distance, id]), or its stand-ins by their
    hidden ids (a stand-in's position holds no key): where it stopped among this order's
    stand-ins cannot be told, so the walk starts again from the first page."""
    if cursor is None:
        return After()
    state = decode_cursor(cursor, ("walk", "after"))
    made_for, after = state["walk"], state["after"]
    if not isinstance(made_for, dict) or set(made_for) != set(_IDENTITY):
        raise _undecodable()
    for key, value in walk.identity().items():
        if made_for[key] != value:
            name = _PARAMETER.get(key, key)
            if key == "filters" and isinstance(made_for[key], dict):
                name = _differing(made_for[key], value)
            raise BadRequest(
                f"The cursor was made for another `{name}`: pass the same parameters as "
                "the request that gave it.",
                code="invalid_cursor",
                extra={"parameter": name},
            )
    if not isinstance(after, dict) or set(after) != set(SIDES):
        raise _undecodable()
    return After(
        _position(after["downstream"], seal), _position(after["upstream"], seal), started=True
    )


def _differing(made_for: dict[str, Any], given: dict[str, str]) -> str:
    return next(n for n in FILTERS if made_for.get(n) != given.get(n))


def _position(raw: Any, seal: Seal | None) -> Position | None:
    if raw is None:
        return None
    if isinstance(raw, list) and len(raw) == 2:
        raise _earlier_order()
    if (
        isinstance(raw, list)
        and len(raw) == 3
        and isinstance(raw[0], int)
        and not isinstance(raw[0], bool)
        and isinstance(raw[1], bool)
        and isinstance(raw[2], str)
    ):
        opened = seal.open(raw[2]) if seal is not None else raw[2]
        if opened is not None and not raw[1]:
            return raw[0], raw[1], opened
        if opened is not None:
            if not opened.startswith(STANDIN):
                raise _earlier_order()
            key = opened[len(STANDIN) :]
            if key.isdigit():
                return raw[0], raw[1], int(key)
    raise _undecodable()


def _earlier_order() -> BadRequest:
    return BadRequest(
        "The cursor was made by an earlier version of the service, which ordered "
        "pages otherwise: start again from the first page.",
        code="invalid_cursor",
    )


def _undecodable() -> BadRequest:
    return BadRequest("The cursor cannot be decoded.", code="invalid_cursor")


def take(limit: int, after: After) -> int:
    """Nodes besides the root a page holds: the root takes one place on the first page."""
    return limit if after.started else limit - 1


def page_params(
    limit: int,
    after: After = After(),
    filters: Filters = NO_FILTERS,
    readable: Iterable[str] | None = None,
    shuffle: Shuffle = UNSHUFFLED,
    token_hash: str | None = None,
    access: list[str] | None = None,
) -> dict[str, Any]:
    """The walk statements' page parameters (`lineage.traverse`; `_as_of` takes no
    filters): how many to take, the stand-ins' shuffle, and in one map (`given`) what
    may be absent: each side's position, the filters, the private domains the caller
    may read (None: all; `Filters.shows`), the token to re-check and the access read
    with it. Neo4j keys its plan cache by the parameters' types, null and a list among
    them, so separate parameters made up to 2^9 plans of the statement per depth, each
    compiled in about a second; a map is one type whatever it holds."""
    return {
        "take": take(limit, after),
        "shuffle": shuffle.params(),
        "given": {
            **after.params(),
            **filters.params(),
            "readable": None if readable is None else sorted(readable),
            "token_hash": token_hash,
            "access": access,
        },
    }


@dataclass(frozen=True)
class Page:
    """One page in the answer's shape, before the cursor is written."""

    root: str
    nodes: list[Node]
    edges: list[dict[str, Any]]
    after: After
    remaining: dict[str, int]
    hidden: dict[str, int]
    capped: list[dict[str, Any]] = field(default_factory=list)
    # The owning team of each private domain among the nodes, when the walk statement
    # read them (None: not read, ask).
    teams: Mapping[str, str] | None = None

    @property
    def more(self) -> bool:
        return any(self.remaining.values())


def assemble_page(
    walk: Walk,
    root: Node,
    after: After,
    taken: Sequence[Node],
    edges: Iterable[Sequence[Any]],
    pending: Mapping[str, int],
    hidden: Mapping[str, int],
    readable: Container[str] | None = None,
) -> Page:
    """A page from a walk's rows. `taken` is the page's nodes in the walk's own order
    (Neo4j compares some strings by UTF-16 code unit, so the positions come from that
    order, and the nodes shown are sorted again by code point); `edges` are
    [source, target, transformation], a pair possibly twice; `pending` counts, per side,
    the shown nodes after the side's position before this page took its own.
    `readable`: the private domains the caller may read (None: all), which decide
    where each node sorts (`position`), as they decided it in the walk."""
    positions = {side: after.of(side) for side in SIDES}
    for node in taken:
        positions[node["direction"]] = position(node, readable)
    moved = After(positions["downstream"], positions["upstream"], started=True)
    shown = sorted(taken, key=lambda node: position(node, readable))
    nodes = shown if after.started else [root, *shown]
    folded = {(e[0], e[1]): e[2] for e in edges}
    return Page(
        root=root["id"],
        nodes=nodes,
        edges=sorted(
            ({"source": s, "target": t, "transformation": x} for (s, t), x in folded.items()),
            key=_BY_ENDS,
        ),
        after=moved,
        remaining={
            side: pending[side] - sum(1 for n in taken if n["direction"] == side)
            for side in walk.sides
        },
        hidden={side: hidden[side] for side in walk.sides},
    )


def check_root(authorised: bool | None, root: Node | None, walk: Walk) -> None:
    """401 for a refused token, 404 for a root that is not there (then); `authorised`
    null says the remembered caller's roles changed (`StaleAccess`)."""
    if authorised is None:
        raise StaleAccess
    if not authorised:
        raise invalid_token()
    if root is None:
        when = f" at {walk.as_of}" if walk.as_of else ""
        raise NotFound(f"No asset with id {walk.root!r}{when}.", code="asset_not_found")
