"""Which events a reader may see when assets sit in private domains: pure rules over
what each event carries from its write.

An event names its subjects by type: the asset (`asset.*`, `column.tag.*`, a quality
rule's or a policy finding's asset), both ends of an edge (`lineage.edge.*`), the
quality rule whose asset it concerns (`quality.result.recorded`), the domain
(`domain.*`). The statement that appends the event looks those up in the writing
transaction and keeps `hides_in`, the private domains among them: a reader sees the
event only with a role in every one of them (a global admin sees all). A lineage event
with one end hidden is therefore left out, not renamed: its payload is the edge itself,
and a stand-in in it would still tell that the visible end gained an edge from
something hidden, with no answer of which to follow.

Some events also *mention* assets beside their subject (a failing rule's downstream
assets, a policy finding's path, the column a tag was inherited from): those in private
domains are kept as `hidden` (id -> domain) and shown to a reader who may not read them
as `redacted:<n>` stand-ins, so the alert still reaches the subject's readers and its
counts stay complete. A stand-in tells nothing by its place: in a list whose order
comes from the ids (a rule's downstream assets) the stand-ins come last. A failing
rule's alert also names the owners of its downstream assets: an owner of hidden ones
only is kept apart (`hidden_owners`: owner -> their domains) and shown only to a reader
of one of those domains.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.domain.finding_privacy import assets_of, redact_finding

# Event types whose placement is the domain they name (`data.id`, or `data.domain`).
DOMAIN_PREFIX = "domain."
# Events that change what a reader may read: a stream asks again after one of them.
ACCESS_CHANGES = ("team.", "domain.", "audit.user.")


@dataclass(frozen=True)
class Subjects:
    """What an event is about, as the append statement looks it up."""

    assets: tuple[str, ...] = ()
    rule: str | None = None
    domain: str | None = None
    mentions: tuple[str, ...] = ()


def _strings(*values: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if isinstance(v, str)))


def subjects_of(event_type: str, data: Any) -> Subjects:
    """The subjects of an event of `event_type` whose payload is `data` (plain JSON)."""
    if not isinstance(data, Mapping):
        return Subjects()
    family = event_type.rsplit(".", 1)[0]
    if family == "asset" and event_type != "asset.merged":
        return Subjects(assets=_strings(data.get("id")))
    if event_type == "asset.merged":
        return Subjects(assets=_strings(data.get("from"), data.get("into")))
    if family == "lineage.edge":
        return Subjects(assets=_strings(data.get("source"), data.get("target")))
    if event_type == "quality.result.recorded":
        return Subjects(rule=data.get("rule_id") if isinstance(data.get("rule_id"), str) else None)
    if event_type in ("quality.rule.failed", "quality.rule.recovered"):
        impact = data.get("impact") or {}
        downstream = impact.get("downstream_ids") if isinstance(impact, Mapping) else None
        return Subjects(assets=_strings(data.get("asset_id")), mentions=_strings(*downstream or ()))
    if family == "policy.violation":
        return Subjects(assets=_strings(data.get("asset_id")), mentions=_strings(*assets_of(data)))
    if family == "column.tag":
        return Subjects(assets=_strings(data.get("asset_id")), mentions=_strings(*_sources(data)))
    if family == "quality.rule":
        return Subjects(assets=_strings(data.get("asset_id")))
    if event_type.startswith(DOMAIN_PREFIX):
        named = data.get("domain") if event_type == "domain.membership.changed" else data.get("id")
        return Subjects(domain=named if isinstance(named, str) else None)
    return Subjects()


def _sources(data: Mapping[str, Any]) -> list[Any]:
    """The assets a column tag came from (`columns[].from.asset`)."""
    columns = data.get("columns")
    if not isinstance(columns, list):
        return []
    return [c["from"].get("asset") for c in columns if isinstance(_from(c), Mapping)]


def _from(column: Any) -> Any:
    return column.get("from") if isinstance(column, Mapping) else None


def hidden_owners(places: Iterable[Sequence[Any]]) -> list[tuple[str, str]]:
    """From each downstream asset's owners with its private domain (`[owner, domain]`,
    domain null outside private domains): the owners of hidden assets only, paired with
    each of their domains, by owner then domain. An owner of any other asset is no secret."""
    pairs = {(str(owner), domain) for owner, domain in places}
    public = {owner for owner, domain in pairs if domain is None}
    return sorted((o, str(d)) for o, d in pairs if d is not None and o not in public)


def shows(readable: Sequence[str] | None, hides_in: Sequence[str]) -> bool:
    """Whether a reader who may read the private domains `readable` (None: all) sees an
    event placed in the private domains `hides_in`."""
    return readable is None or all(domain in readable for domain in hides_in)


def redact_mentions(
    event_type: str,
    data: Any,
    hidden: Mapping[str, str],
    readable: Sequence[str] | None,
    owners: Mapping[str, Sequence[str]] | None = None,
) -> Any:
    """`data` as a reader who may read the private domains `readable` (None: all) sees
    it: each mentioned asset it may not read a stand-in (`redacted:<n>`), and each owner
    of such assets only (`owners`: owner -> their domains) left out; `data` itself when
    nothing is hidden from the reader."""
    concealed = {asset for asset, domain in hidden.items() if not shows(readable, (domain,))}
    unnamed = {
        owner
        for owner, domains in (owners or {}).items()
        if not any(shows(readable, (domain,)) for domain in domains)
    }
    if not (concealed or unnamed) or not isinstance(data, Mapping):
        return data
    if event_type in ("quality.rule.failed", "quality.rule.recovered"):
        return _impact(data, concealed, unnamed)
    if event_type.startswith("policy.violation."):
        return redact_finding(data, concealed)
    if event_type.startswith("column.tag."):
        return _tag_sources(data, concealed)
    return data


def _impact(data: Mapping[str, Any], concealed: set[str], unnamed: set[str]) -> Any:
    """The downstream ids with the readable ones first in their order, then one stand-in
    per hidden one (where a hidden id sorted among the others would tell of it); the
    owners without those of hidden assets only."""
    impact = data.get("impact")
    if not isinstance(impact, Mapping):
        return data
    shown = dict(impact)
    ids = impact.get("downstream_ids")
    if isinstance(ids, list):
        readable = [i for i in ids if i not in concealed]
        hidden = len(ids) - len(readable)
        shown["downstream_ids"] = readable + [f"redacted:{n}" for n in range(1, hidden + 1)]
    if isinstance(impact.get("owners"), list):
        shown["owners"] = [o for o in impact["owners"] if o not in unnamed]
    return {**data, "impact": shown}


def _tag_sources(data: Mapping[str, Any], concealed: set[str]) -> Any:
    """Each column's `from` in a hidden asset as a stand-in asset and column, numbered
    in the order of the (readable) columns inheriting."""
    columns = data.get("columns")
    if not isinstance(columns, list):
        return data
    assets: dict[str, str] = {}
    names: dict[tuple[str, str], str] = {}
    shown = []
    for column in columns:
        source = _from(column)
        if not isinstance(source, Mapping) or source.get("asset") not in concealed:
            shown.append(column)
            continue
        asset, name = str(source["asset"]), str(source.get("column"))
        stand_in = {
            "asset": assets.setdefault(asset, f"redacted:{len(assets) + 1}"),
            "column": names.setdefault((asset, name), f"redacted:{len(names) + 1}"),
        }
        shown.append({**column, "from": stand_in})
    return {**data, "columns": shown}
