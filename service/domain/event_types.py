"""The event types the service writes, and the `types` filter patterns clients send."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

AUDIT_PREFIX = "audit."
# Events about one user's own things (token names, prefixes, scopes): shown to admins
# and to that user only (the event's owner).
OWNED_PREFIX = "token."
# The audit trail: administrative actions, shown to admins only.
AUDIT_TYPES = (
    "audit.token.created", "audit.token.revoked",
    "audit.user.created", "audit.user.updated", "audit.user.deleted",
    "audit.webhook.created", "audit.webhook.updated", "audit.webhook.deleted",
    "audit.webhook.tested",
    "audit.query.cypher",
    "audit.policy.created", "audit.policy.updated", "audit.policy.deleted",
)  # fmt: skip

EVENT_TYPES = (
    "asset.created", "asset.updated", "asset.deleted", "asset.merged",
    "lineage.edge.created", "lineage.edge.updated", "lineage.edge.deleted",
    "lineage.bulk.ingested", "lineage.manifest.ingested",
    "column.tag.inherited", "column.tag.lost",
    "policy.created", "policy.updated", "policy.deleted",
    "policy.violation.opened", "policy.violation.resolved",
    "quality.rule.created", "quality.rule.updated", "quality.rule.deleted",
    "quality.result.recorded", "quality.rule.failed", "quality.rule.recovered",
    "token.created", "token.revoked",
    "team.created", "team.updated", "team.deleted",
    "domain.created", "domain.updated", "domain.deleted", "domain.membership.changed",
    "webhook.disabled",
    *AUDIT_TYPES,
)  # fmt: skip


@dataclass(frozen=True)
class TypeFilter:
    """Exact types and `prefix.*` patterns; no patterns at all means every type.
    `hidden` prefixes are never matched, whatever the patterns say; `owned` ones only
    for an event whose owner is `reader`. `readable` (None: all) are the private domains
    whose events the reader may see (`event_privacy.shows`)."""

    exact: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    owned: tuple[str, ...] = ()
    reader: str | None = None
    readable: tuple[str, ...] | None = None

    @property
    def any_type(self) -> bool:
        return not self.exact and not self.prefixes

    def matches(self, event_type: str, owner: str | None = None) -> bool:
        if any(event_type.startswith(h) for h in self.hidden):
            return False
        if any(event_type.startswith(o) for o in self.owned) and (
            owner is None or owner != self.reader
        ):
            return False
        return (
            self.any_type
            or event_type in self.exact
            or any(event_type.startswith(p) for p in self.prefixes)
        )

    def view(self) -> dict[str, Any]:
        """The event statements' `$view`: the filter as one map. As separate parameters
        an empty list, a filled one and a null were each a type of their own, and Neo4j
        planned the statement again for each combination (12 plans of `events.after`
        in one test worker's run); a map is one type whatever it holds."""
        return {
            "any_type": self.any_type,
            "types": sorted(self.exact),
            "prefixes": list(self.prefixes),
            "hidden": list(self.hidden),
            "owned": list(self.owned),
            "reader": self.reader,
            "readable": None if self.readable is None else list(self.readable),
        }

    def for_reader(self, admin: bool, user_id: str | None) -> TypeFilter:
        """The same filter for what one reader may see: an admin everything; anyone
        else no audit trail, and `token.*` events of their own tokens only."""
        if admin:
            return self
        return replace(self, hidden=(AUDIT_PREFIX,), owned=(OWNED_PREFIX,), reader=user_id)

    def within(self, readable: tuple[str, ...] | None) -> TypeFilter:
        """The same filter for a reader who may read the private domains `readable`."""
        return replace(self, readable=readable)

    def without_audit(self) -> TypeFilter:
        """The same filter for a reader below admin: the audit trail is left out."""
        return replace(self, hidden=(AUDIT_PREFIX,))

    def audit_opt_in(self) -> TypeFilter:
        """For a webhook: the audit trail only when a pattern names it (`audit.*` or an
        `audit.` type), so a `*` subscription made before it existed gets nothing new."""
        named = any(t.startswith(AUDIT_PREFIX) for t in (*self.exact, *self.prefixes))
        return self if named else self.without_audit()


def parse_patterns(raw: list[str]) -> tuple[TypeFilter, str | None]:
    """(filter, problem): `a.*,b.c` and repeated parameters both work; a pattern
    that can match no known type is a problem rather than a silent empty stream."""
    patterns = [p.strip() for value in raw for p in value.split(",") if p.strip()]
    exact, prefixes = set(), []
    for pattern in patterns:
        if pattern == "*":
            return TypeFilter(), None
        if pattern.endswith(".*"):
            prefix = pattern[:-1]
            if not any(t.startswith(prefix) for t in EVENT_TYPES):
                return TypeFilter(), f"{pattern!r} matches no event type"
            prefixes.append(prefix)
        elif pattern in EVENT_TYPES:
            exact.add(pattern)
        else:
            return TypeFilter(), f"{pattern!r} is not an event type"
    return TypeFilter(frozenset(exact), tuple(prefixes)), None
