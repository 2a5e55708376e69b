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
assets, a policy finding's path): those in private domains are kept as `hidden` (id ->
domain) and shown to a reader who may not read them as `redacted:<n>` stand-ins, so
the alert still reaches the subject's readers and its counts stay complete.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
        return Subjects(
            assets=_strings(data.get("asset_id")), mentions=_strings(*data.get("path") or ())
        )
    if family in ("column.tag", "quality.rule"):
        return Subjects(assets=_strings(data.get("asset_id")))
    if event_type.startswith(DOMAIN_PREFIX):
        named = data.get("domain") if event_type == "domain.membership.changed" else data.get("id")
        return Subjects(domain=named if isinstance(named, str) else None)
    return Subjects()


def shows(readable: Sequence[str] | None, hides_in: Sequence[str]) -> bool:
    """Whether a reader who may read the private domains `readable` (None: all) sees an
    event placed in the private domains `hides_in`."""
    return readable is None or all(domain in readable for domain in hides_in)


def redact_mentions(
    event_type: str, data: Any, hidden: Mapping[str, str], readable: Sequence[str] | None
) -> Any:
    """`data` with each mentioned asset the reader may not read replaced by a stand-in
    (`redacted:<n>`, numbered in order of mention); `data` itself when none is."""
    concealed = {
        asset: domain for asset, domain in hidden.items() if not shows(readable, (domain,))
    }
    if not concealed or not isinstance(data, Mapping):
        return data
    stand_ins: dict[str, str] = {}

    def renamed(ids: Sequence[Any]) -> list[Any]:
        out = []
        for asset in ids:
            if asset in concealed:
                asset = stand_ins.setdefault(asset, f"redacted:{len(stand_ins) + 1}")
            out.append(asset)
        return out

    if event_type in ("quality.rule.failed", "quality.rule.recovered"):
        impact = data.get("impact")
        if isinstance(impact, Mapping) and isinstance(impact.get("downstream_ids"), list):
            return {
                **data,
                "impact": {**impact, "downstream_ids": renamed(impact["downstream_ids"])},
            }
    if event_type.startswith("policy.violation.") and isinstance(data.get("path"), list):
        return {**data, "path": renamed(data["path"])}
    return data
