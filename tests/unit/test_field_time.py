"""The datetime-local value the dashboard renders is the browser's own spelling of it."""

import pytest

from service.dashboard.present import field_time


@pytest.mark.parametrize(
    ("stamp", "shown"),
    [
        ("2026-11-27T18:03:05.080Z", "2026-11-27T18:03:05.08"),
        ("2026-11-27T18:03:05.123Z", "2026-11-27T18:03:05.123"),
        ("2026-11-27T18:03:05.000Z", "2026-11-27T18:03:05"),
        ("2026-11-27T18:03:00.000Z", "2026-11-27T18:03"),
        ("2026-11-27T18:03:00.500Z", "2026-11-27T18:03:00.5"),
        ("2026-11-27T18:00:00Z", "2026-11-27T18:00"),
        (None, ""),
        ("", ""),
    ],
)
def test_an_instant_is_shown_in_the_shortest_form_a_browser_keeps(
    stamp: str | None, shown: str
) -> None:
    assert field_time(stamp) == shown
