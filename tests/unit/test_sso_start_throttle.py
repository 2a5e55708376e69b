"""Single sign-on starts are counted per browser mark, per address for starts
without one, and all together against one ceiling; marks cannot be made up."""

from __future__ import annotations

from service.domain.access.browser_marks import BrowserMarks
from service.ratelimit import SignInThrottle
from service.settings import RateLimit

PROXY = "10.0.0.1"


def test_a_browser_over_its_budget_waits_while_another_behind_the_same_address_starts() -> None:
    throttle = SignInThrottle(RateLimit(auth_failures_per_minute=2))
    assert throttle.start(PROXY, "abuser", marked=False) == 0
    assert throttle.start(PROXY, "abuser", marked=True) == 0
    assert 0 < throttle.start(PROXY, "abuser", marked=True) <= 60
    assert throttle.start(PROXY, "other", marked=False) == 0
    assert throttle.start(PROXY, "other", marked=True) == 0


def test_starts_without_a_mark_share_the_address_budget() -> None:
    throttle = SignInThrottle(RateLimit(auth_failures_per_minute=2))
    assert throttle.start(PROXY, "new-1", marked=False) == 0
    assert throttle.start(PROXY, "new-2", marked=False) == 0
    assert throttle.start(PROXY, "new-3", marked=False) > 0
    assert throttle.start("10.0.0.2", "new-4", marked=False) == 0
    assert throttle.start(PROXY, "new-1", marked=True) == 0


def test_the_ceiling_holds_every_browser_together() -> None:
    throttle = SignInThrottle(RateLimit(auth_failures_per_minute=5, sso_starts_per_minute=3))
    assert [throttle.start(PROXY, f"b{n}", marked=True) for n in range(3)] == [0, 0, 0]
    assert 0 < throttle.start(PROXY, "b9", marked=True) <= 60


def test_a_mark_names_its_browser_under_any_key_held_and_a_forged_one_nothing() -> None:
    old, new = BrowserMarks(["old-key"]), BrowserMarks(["new-key", "old-key"])
    browser, mark = old.mint()
    assert new.holder(mark) == browser
    assert BrowserMarks(["new-key"]).holder(mark) is None
    forged = f"{browser}.{'0' * 64}"
    for value in (None, "", forged, "no-dot", "a.b.c", mark + "x", "x" * 200):
        assert new.holder(value) is None


def test_without_keys_marks_hold_within_the_process_and_each_is_new() -> None:
    marks = BrowserMarks([])
    first, second = marks.mint(), marks.mint()
    assert first[0] != second[0]
    assert BrowserMarks([]).holder(first[1]) == first[0]
