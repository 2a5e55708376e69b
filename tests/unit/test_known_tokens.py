"""The per-process memory of recently authenticated tokens: bounded by size and age."""

from __future__ import annotations

import time

import pytest

from service.auth.known_tokens import KnownTokens
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope


def _principal(n: int) -> Principal:
    return Principal(token_id=f"tok_{n}", name=f"t{n}", scope=Scope.READ)


def test_the_least_recently_used_token_goes_first_when_full() -> None:
    known = KnownTokens(capacity=2)
    known.remember("a", _principal(1))
    known.remember("b", _principal(2))
    assert known.get("a") is not None  # a is now the most recent
    known.remember("c", _principal(3))
    assert known.get("b") is None
    assert [known.get(d) is not None for d in ("a", "c")] == [True, True]
    assert len(known) == 2


def test_an_entry_older_than_its_age_limit_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    known = KnownTokens(max_age_s=60)
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now)
    known.remember("a", _principal(1))
    monkeypatch.setattr(time, "monotonic", lambda: now + 61)
    assert known.get("a") is None
    assert len(known) == 0


def test_a_forgotten_token_must_be_looked_up_again() -> None:
    known = KnownTokens()
    known.remember("a", _principal(1))
    known.forget("a")
    known.forget("never-known")
    assert known.get("a") is None


def test_its_use_is_recorded_again_once_per_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    known = KnownTokens()
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now)
    known.remember("a", _principal(1))
    entry = known.get("a")
    assert entry is not None and not entry.touch_due(60)
    monkeypatch.setattr(time, "monotonic", lambda: now + 61)
    assert entry.touch_due(60)
    assert not entry.touch_due(60)  # counted as done
