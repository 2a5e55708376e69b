"""The event types the service writes, and the `types` filter patterns clients send."""

from __future__ import annotations

from dataclasses import dataclass

EVENT_TYPES = (
    "asset.created", "asset.updated", "asset.deleted",
    "lineage.edge.created", "lineage.edge.updated", "lineage.edge.deleted",
    "lineage.bulk.ingested", "lineage.manifest.ingested",
    "policy.created", "policy.updated", "policy.deleted",
    "policy.violation.opened", "policy.violation.resolved",
    "quality.rule.created", "quality.rule.updated", "quality.rule.deleted",
    "quality.result.recorded", "quality.rule.failed", "quality.rule.recovered",
    "token.created", "token.revoked",
    "webhook.disabled",
)  # fmt: skip


@dataclass(frozen=True)
class TypeFilter:
    """Exact types and `prefix.*` patterns; no patterns at all means every type."""

    exact: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()

    @property
    def any_type(self) -> bool:
        return not self.exact and not self.prefixes

    def matches(self, event_type: str) -> bool:
        return (
            self.any_type
            or event_type in self.exact
            or any(event_type.startswith(p) for p in self.prefixes)
        )


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
