"""Which of a request's assets the caller may not write or read, from the domains the
graph holds for them; where a write would move an asset; and what a domain's new rules
would take from where the caller may not take it: pure, so each refusal and its
listing are unit-tested."""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.domains import KINDS, DomainRules, Rule, compile_rules, domain_for
from service.errors import DomainForbidden, FieldError

MAX_LISTED = 100  # a refusal lists at most this many assets; `assets_count` counts all


@dataclass(frozen=True)
class Placed:
    """An existing asset's domain (None: outside every domain) and its privacy."""

    domain: str | None
    private: bool = False


def refused(
    principal: Principal,
    writes: Iterable[str],
    reads: Iterable[str],
    placed: Mapping[str, Placed],
    new_domains: Mapping[str, Placed] | None = None,
    found_by_service: bool = False,
) -> list[tuple[str, str | None]]:
    """(asset id, domain) of each asset the caller may not write (`writes`) or read
    (`reads`), in id order. An id naming no asset is written outside every domain unless
    `new_domains` places it (the domain its fields would give it). A refusal tells no
    more than a read would: an asset of a private domain the caller may not read, or a
    new one its fields would place in such a domain, is listed with domain null, and,
    when the service found the ids itself
    (`found_by_service`: a column tag rule's holders, a quality rule's asset), last as
    a stand-in `redacted:<n>` rather than by its id."""
    bad: dict[str, str | None] = {}
    hidden: set[str] = set()
    for asset_id in writes:
        where = placed.get(asset_id) or (new_domains or {}).get(asset_id) or Placed(None)
        if not domain_rules.can_write(principal, where.domain):
            bad[asset_id] = where.domain if _named(principal, where) else None
    for asset_id in reads:
        where = placed.get(asset_id) or Placed(None)
        if not domain_rules.can_read(principal, where.domain, where.private):
            bad[asset_id] = where.domain
    for asset_id in bad:
        held = placed.get(asset_id)
        if held is not None and not domain_rules.can_read(principal, held.domain, held.private):
            hidden.add(asset_id)
    if not found_by_service:
        return sorted((i, None if i in hidden else d) for i, d in bad.items())
    shown = sorted((i, d) for i, d in bad.items() if i not in hidden)
    return shown + [(f"redacted:{n}", None) for n in range(1, len(hidden) + 1)]


def moved_into(
    principal: Principal, asset_id: str, to: Placed, unchanged: Container[str | None] = ()
) -> list[tuple[str, str | None]]:
    """[(asset id, destination)] when a write would place the asset in `to` (its rules
    applied to the fields written), a domain where the caller may not write (or outside
    every domain, where its global role does not reach editor); [] otherwise, and when
    `to` is where the asset lies now or where its current fields place it (`unchanged`:
    the write does not move it). A private destination the caller may not read is
    listed as null, as a read would name it."""
    if to.domain in unchanged or domain_rules.can_write(principal, to.domain):
        return []
    return [(asset_id, to.domain if _named(principal, to) else None)]


def _named(principal: Principal, where: Placed) -> bool:
    return domain_rules.can_read(principal, where.domain, where.private)


@dataclass(frozen=True)
class Held:
    """An existing asset as a domain's new rules are checked against it: what the rules
    read of it (`domains.READS`) and where it lies now."""

    node: Mapping[str, Any]
    where: Placed


def claims(
    principal: Principal,
    domain_id: str,
    rules: Sequence[Rule],
    proposed: DomainRules,
    assets: Iterable[Held],
) -> dict[int, list[Held]]:
    """The assets each of the domain's `rules` (by index) would take from where they lie
    now into `domain_id` under the `proposed` rules (every domain's, the domain's own
    replaced), where the caller may not take them: from another domain unless the caller
    is its admin, from outside every domain unless its global role may write there. The
    rule named for an asset is the one that places it: the first of the best kind."""
    singles = [compile_rules({domain_id: [rule]}) for rule in rules]
    order = sorted(range(len(rules)), key=lambda i: KINDS.index(rules[i].kind))
    taken: dict[int, list[Held]] = {}
    for held in assets:
        source = held.where.domain
        if source == domain_id or domain_for(held.node, proposed) != domain_id:
            continue
        if _may_give(principal, source):
            continue
        index = next(i for i in order if domain_for(held.node, singles[i]) == domain_id)
        taken.setdefault(index, []).append(held)
    return taken


def _may_give(principal: Principal, source: str | None) -> bool:
    if source is None:
        return domain_rules.can_write(principal, None)
    return domain_rules.is_global_admin(principal) or principal.domain_roles.get(source) == "admin"


def claims_forbidden(principal: Principal, taken: Mapping[int, list[Held]]) -> DomainForbidden:
    """403 `domain_forbidden` naming each rule (`rules[i]`) and the domains it would take
    assets from, and listing those assets as a write's refusal lists them (a private
    domain the caller may not read unnamed, its assets as stand-ins)."""
    errors = []
    for index in sorted(taken):
        sources = {h.where.domain: _named(principal, h.where) for h in taken[index]}
        named = sorted(str(d) for d, shown in sources.items() if shown and d is not None)
        unnamed = [d for d, shown in sources.items() if not shown]
        outside = None in sources
        where = [f"the domain {d}" for d in named]
        where += ["a domain you may not see"] if unnamed else []
        where += ["outside every domain"] if outside else []
        errors.append(
            FieldError(
                ("body", "rules", index),
                f"would take assets from {' and '.join(where)}: moving them out needs the "
                "admin role in their domain (outside every domain, a global role that may "
                "write them)",
                "domain_forbidden",
            )
        )
    held = {h.node["id"]: h.where for hs in taken.values() for h in hs}
    shown = sorted((i, w.domain) for i, w in held.items() if _named(principal, w))
    hidden = sum(not _named(principal, w) for w in held.values())
    detail = (
        f"{len(errors)} rule(s) would take assets from where this caller may not take them: "
        + ", ".join(f"rules[{index}]" for index in sorted(taken))
    )
    listed = shown + [(f"redacted:{n}", None) for n in range(1, hidden + 1)]
    return forbidden(listed, detail, errors)


def forbidden(
    listed: list[tuple[str, str | None]],
    detail: str | None = None,
    errors: list[FieldError] | None = None,
) -> DomainForbidden:
    """403 `domain_forbidden` naming the first MAX_LISTED assets and their domains (null:
    outside every domain, where the global role decides)."""
    assets = [{"id": asset_id, "domain": domain} for asset_id, domain in listed[:MAX_LISTED]]
    count = len(listed)
    return DomainForbidden(
        detail
        or f"{count} asset(s) lie where this caller may not write: "
        + ", ".join(str(a["id"]) for a in assets[:10]),
        errors=errors,
        extra={"assets": assets, "assets_count": count},
    )
