"""Which domain an asset belongs to, decided from every domain's rules (pure).

An asset is in at most one domain. The rule kinds rank `asset` (explicit) first, then
`dbt_project`, `namespace` (a prefix of the asset id) and `tag`; the first kind with a
match decides, and within a kind the domain id that sorts first wins. Both the write
paths and the re-evaluation after a domain change use `placement`, so the two always
agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.ids import is_plain_id, normalise

# In order of precedence.
KINDS = ("asset", "dbt_project", "namespace", "tag")
DBT_PROJECT_PROPERTY = "prop.dbt_project"  # what a dbt upload writes for the project
# The node properties the decision reads (a re-evaluation fetches only these).
READS = ("id", "tags", DBT_PROJECT_PROPERTY)


@dataclass(frozen=True)
class Rule:
    kind: str
    value: str


@dataclass(frozen=True)
class DomainRules:
    """Every domain's rules, indexed once for fast look-ups on every write.
    `stamp` identifies the stored rules these were read from (None: no domain yet)."""

    stamp: str | None = None
    explicit: Mapping[str, str] = field(default_factory=dict)
    projects: Mapping[str, str] = field(default_factory=dict)
    prefixes: tuple[tuple[str, str], ...] = ()
    tags: Mapping[str, str] = field(default_factory=dict)
    private: frozenset[str] = frozenset()


def compile_rules(
    rules_by_domain: Mapping[str, Sequence[Rule]],
    private: Iterable[str] = (),
    stamp: str | None = None,
) -> DomainRules:
    """Index the rules; each value keeps the domain id that sorts first."""
    index: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
    for domain in sorted(rules_by_domain):
        for rule in rules_by_domain[domain]:
            value = _spelled(rule)
            index[rule.kind].setdefault(value, domain)
    prefixes = sorted(index["namespace"].items(), key=lambda pair: (pair[1], pair[0]))
    return DomainRules(
        stamp=stamp,
        explicit=index["asset"],
        projects=index["dbt_project"],
        prefixes=tuple(prefixes),
        tags=index["tag"],
        private=frozenset(private),
    )


def _spelled(rule: Rule) -> str:
    """A rule's value as assets are compared with it: tags ignore case; ids (and their
    prefixes) in NFC, as the service spells ids (rules kept before values were
    normalised on the way in still match)."""
    if rule.kind == "tag":
        return rule.value.lower()
    return rule.value if is_plain_id(rule.value) else normalise(rule.value)


def domain_for(asset: Mapping[str, Any], rules: DomainRules) -> str | None:
    """The domain of an asset given its node properties (`id`, `tags`,
    `prop.dbt_project`), or None when no rule matches."""
    asset_id = str(asset.get("id", ""))
    if asset_id in rules.explicit:
        return rules.explicit[asset_id]
    project = asset.get(DBT_PROJECT_PROPERTY)
    if isinstance(project, str) and project in rules.projects:
        return rules.projects[project]
    for prefix, domain in rules.prefixes:
        if asset_id.startswith(prefix):
            return domain
    matched = [rules.tags[t.lower()] for t in asset.get("tags") or () if t.lower() in rules.tags]
    return min(matched) if matched else None


def placement(asset: Mapping[str, Any], rules: DomainRules) -> dict[str, Any]:
    """The two denormalized properties for the asset: `domain` and `domain_private`,
    each present only when set (a node replaced with these loses stale ones)."""
    domain = domain_for(asset, rules)
    if domain is None:
        return {}
    return {"domain": domain, **({"domain_private": True} if domain in rules.private else {})}
