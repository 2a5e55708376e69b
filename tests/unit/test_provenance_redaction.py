"""Stand-ins that tell nothing by their number or place: an asset's column provenance
through hidden assets, and change impact whose hidden assets' ids sort in any order."""

from __future__ import annotations

from typing import Any

from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.domain.impact import Change
from service.domain.impact_redaction import hiding
from service.domain.impact_walk import Reached
from service.domain.provenance_redaction import redact_provenance, sources
from service.domain.redaction import unreadable
from service.models.columns import AssetColumn, InheritedTag, PathStep
from service.models.lineage import ColumnRef

OUTSIDER = Principal("tok_1", "t", Scope.READ, "usr_1", "viewer", {})
PRIVATE: dict[str, Any] = {"domain": "finance", "private": True}
PUBLIC: dict[str, Any] = {"domain": None, "private": False}


def inherited(tag: str, *steps: tuple[str, str]) -> InheritedTag:
    path = [PathStep(asset=a, column=c, kind=None if i == 0 else "identity") for i, (a, c) in
            enumerate(steps)]  # fmt: skip
    return InheritedTag(tag=tag, from_=ColumnRef(asset=steps[0][0], column=steps[0][1]), path=path)


def test_provenance_through_hidden_assets_names_stand_ins_in_listing_order() -> None:
    columns = [
        AssetColumn(
            name="contact",
            tags=[],
            inherited=[
                inherited("pii", ("zz.secret", "email"), ("stg", "email"), ("pub", "contact")),
                inherited("pci", ("aa.secret", "card"), ("pub", "contact")),
            ],
        ),
        AssetColumn(name="id", tags=["key"], inherited=[]),
    ]
    places = {"zz.secret": PRIVATE, "aa.secret": PRIVATE, "stg": PUBLIC, "pub": PUBLIC}
    assert sources(columns) == {"zz.secret", "aa.secret", "stg", "pub"}
    shown = redact_provenance(columns, places, lambda place: unreadable(OUTSIDER, place))
    pii, pci = shown[0].inherited
    # numbered as the listing shows them (by tag, then path), never by the hidden ids
    assert pii.from_ == ColumnRef(asset="redacted:1", column="redacted:1")
    assert [(s.asset, s.column, s.kind) for s in pii.path] == [
        ("redacted:1", "redacted:1", None),
        ("stg", "email", "identity"),
        ("pub", "contact", "identity"),
    ]
    assert pci.from_ == ColumnRef(asset="redacted:2", column="redacted:2")
    assert "secret" not in str([c.model_dump() for c in shown])
    assert shown[1] == columns[1]
    member = redact_provenance(columns, places, lambda place: False)
    assert member == columns


def _report(secret_ids: tuple[str, str]) -> list[Any]:
    """A report with two hidden changed assets and a readable one, shown to an outsider."""
    first, second = secret_ids
    places = {first: PRIVATE, second: PRIVATE, "mart": PUBLIC}
    changes = sorted(
        [
            Change("model_removed", first, breaking=True),
            Change("column_removed", second, "amount", breaking=True),
            Change("column_removed", "mart", "x", breaking=True),
        ],
        key=lambda c: c.asset,
    )
    reached = [Reached("mart", None, 1, (), ((first, None), ("mart", None)))]
    nodes = [(c.asset, c.column) for c in changes] + [n for r in reached for n in r.path]
    hidden = hiding(OUTSIDER, nodes, places, {"finance": "fin"})
    changes = sorted(changes, key=hidden.change_order)
    hidden.number([(c.asset, c.column) for c in changes] + nodes[len(changes) :])
    return [(c.kind, hidden.node((c.asset, c.column))) for c in changes] + [
        [hidden.node(n) for n in r.path] for r in reached
    ]


def test_impact_stand_ins_are_placed_and_numbered_alike_however_the_hidden_ids_sort() -> None:
    low, high = _report(("a.secret", "z.secret")), _report(("z.secret", "a.secret"))
    assert low == high
    assert low[0] == ("column_removed", ("mart", "x"))  # readable first
    assert low[1:3] == [
        ("column_removed", ("redacted:1", "redacted:1")),
        ("model_removed", ("redacted:2", None)),
    ]
    assert low[3] == [("redacted:2", None), ("mart", None)]
