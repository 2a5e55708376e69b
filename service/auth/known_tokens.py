"""The tokens this process has recently authenticated, for routes that re-check the
token inside their own statement (`Policy.rechecked`).

Nothing here decides that a token is valid: an entry only lets such a route skip the
separate look-up, and its statement refuses a token revoked or expired since, in
whichever process that happened, and reports a user whose global role or grants are
no longer the entry's (`Principal.access`), which sends the request through a fresh
look-up (`AuthMiddleware`). Bounded in size and age, so a process holding
many tokens or a user's changed name stays current.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from service.domain.access.principal import Principal


@dataclass
class KnownToken:
    principal: Principal
    seen_at: float  # monotonic, when it was last looked up in Neo4j
    touched_at: float  # monotonic, when its `last_used_at` was last known recorded

    def touch_due(self, interval_s: float) -> bool:
        """Whether its `last_used_at` should be recorded again (and counts it as done)."""
        now = time.monotonic()
        if now - self.touched_at < interval_s:
            return False
        self.touched_at = now
        return True


class KnownTokens:
    def __init__(self, capacity: int = 10_000, max_age_s: float = 300.0) -> None:
        self.capacity = capacity
        self.max_age_s = max_age_s
        self._entries: OrderedDict[str, KnownToken] = OrderedDict()

    def get(self, digest: str) -> KnownToken | None:
        entry = self._entries.get(digest)
        if entry is None:
            return None
        if time.monotonic() - entry.seen_at > self.max_age_s:
            del self._entries[digest]
            return None
        self._entries.move_to_end(digest)
        return entry

    def remember(self, digest: str, principal: Principal) -> None:
        """After a look-up, which recorded the token's use or found it recorded lately."""
        now = time.monotonic()
        self._entries[digest] = KnownToken(principal, now, now)
        self._entries.move_to_end(digest)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def forget(self, digest: str) -> None:
        self._entries.pop(digest, None)

    def __len__(self) -> int:
        return len(self._entries)
