"""The domain rules every asset write consults, kept in memory per process.

Each write transaction reads the rules stamp (one index seek, `domains.stamp`); the
rules are read again only when the stamp differs from the copy held here. Every domain
change writes a new random stamp, so a change made through any process (or a graph
cleared and refilled) is seen by the next write everywhere. A write that read the
stamp just before a domain change committed may place its asset by the former rules;
the change's own re-evaluation, which runs after it commits, sets such an asset right
unless the write commits after the re-evaluation passed it (see docs/access.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from service.domain.domains import DomainRules, Rule, compile_rules, placement
from service.graph import Reader, Tx

_held = DomainRules()


async def current(tx: Tx | Reader) -> DomainRules:
    """The rules as of the stamp `tx` reads now (a read too: the per-domain checks
    place the assets a write would create before it begins)."""
    global _held
    stamp = (await tx.run("domains.stamp"))[0]["stamp"]
    if stamp != _held.stamp:
        _held = await _load(tx) if stamp is not None else DomainRules()
    return _held


async def proposed(reader: Reader, domain_id: str, rules: Sequence[Rule]) -> DomainRules:
    """Every domain's rules as stored, with those of `domain_id` (new or not) replaced by
    `rules`: what placing would read once a replace of the domain commits."""
    return await _load(reader, {domain_id: list(rules)})


async def _load(tx: Tx | Reader, replaced: Mapping[str, list[Rule]] | None = None) -> DomainRules:
    row = (await tx.run("domains.rules"))[0]
    by_domain = {
        domain_id: [Rule(r["kind"], r["value"]) for r in orjson.loads(rules_json or "[]")]
        for domain_id, rules_json, _private in row["domains"]
    }
    by_domain.update(replaced or {})
    private = [domain_id for domain_id, _rules, is_private in row["domains"] if is_private]
    return compile_rules(by_domain, private, row["stamp"])


def placed(props: Mapping[str, Any], rules: DomainRules) -> dict[str, Any]:
    """`props` (a node about to be written whole) with its domain set or cleared."""
    out = {k: v for k, v in props.items() if k not in ("domain", "domain_private")}
    out.update(placement(props, rules))
    return out


def placeholder_domains(ids: Iterable[str], rules: DomainRules) -> dict[str, Any]:
    """For statements that make bare placeholders: {id: domain} for the ids a rule
    places (a placeholder has no tags or project, so its id alone decides), and the
    private domains, as `$domains` and `$private`."""
    found = {i: d for i in ids if (d := placement({"id": i}, rules).get("domain"))}
    return {"domains": found, "private": sorted(rules.private)}
