"""Which of a request's assets the caller may not write or read, from the domains the
graph holds for them: pure, so the refusal and its listing are unit-tested."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.errors import DomainForbidden

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
    new_domains: Mapping[str, str | None] | None = None,
    found_by_service: bool = False,
) -> list[tuple[str, str | None]]:
    """(asset id, domain) of each asset the caller may not write (`writes`) or read
    (`reads`), in id order. An id naming no asset is written outside every domain unless
    `new_domains` places it (the domain its fields would give it). A refusal tells no
    more than a read would: an asset of a private domain the caller may not read is
    listed with domain null, and, when the service found the ids itself
    (`found_by_service`: a column tag rule's holders, a quality rule's asset), last as
    a stand-in `redacted:<n>` rather than by its id."""
    bad: dict[str, str | None] = {}
    hidden: set[str] = set()
    for asset_id in writes:
        where = placed.get(asset_id) or Placed((new_domains or {}).get(asset_id))
        if not domain_rules.can_write(principal, where.domain):
            bad[asset_id] = where.domain
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


def forbidden(listed: list[tuple[str, str | None]]) -> DomainForbidden:
    """403 `domain_forbidden` naming the first MAX_LISTED assets and their domains (null:
    outside every domain, where the global role decides)."""
    assets = [{"id": asset_id, "domain": domain} for asset_id, domain in listed[:MAX_LISTED]]
    count = len(listed)
    return DomainForbidden(
        f"{count} asset(s) lie where this caller may not write: "
        + ", ".join(str(a["id"]) for a in assets[:10]),
        extra={"assets": assets, "assets_count": count},
    )
