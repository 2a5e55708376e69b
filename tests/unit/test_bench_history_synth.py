"""The synthetic history graph's pure parts: the instants planned, and the properties
an edge history, a trail and an asset's versions hold after the rounds."""

from datetime import UTC, datetime

from bench.history_synth import Plan, asset, batches, edge, edge_history, trail, versions
from service.domain.history import OPEN, instant_ms

END = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)
PLAN = Plan.ending(END, 3)


def test_the_plan_takes_one_instant_a_round_in_time_order_before_its_end() -> None:
    sequence = PLAN.sequence()

    assert len(sequence) == 7
    assert sequence == sorted(sequence)
    assert PLAN.loaded == "2026-11-27T21:53:00.000Z"
    assert PLAN.changed == [
        "2026-11-27T21:57:00.000Z",
        "2026-11-27T21:58:00.000Z",
        "2026-11-27T21:59:00.000Z",
    ]


def test_as_of_falls_inside_the_last_edge_round_but_one() -> None:
    assert PLAN.changed[-2] < PLAN.as_of < PLAN.changed[-1]
    assert PLAN.as_of == "2026-11-27T21:58:30.000Z"


def test_an_edge_history_holds_back_to_back_intervals_the_last_open() -> None:
    history = edge_history(PLAN.changed)
    first, second, third = PLAN.changed

    assert history["since"] == [first, second, third]
    assert history["until"] == [second, third, OPEN]
    assert history["transformed"] == [True, True, True]
    assert history["transformation"] == ["select 1", "select 2", "select 3"]
    assert (history["origin"], history["origin_since"], history["origin_until"]) == (
        ["api"],
        [first],
        [OPEN],
    )
    assert history["first_closed"] == second


def test_an_edge_history_summary_keeps_its_run_and_last_two_intervals_in_milliseconds() -> None:
    history = edge_history(PLAN.changed)
    first, second, third = PLAN.changed

    assert history["run_since_ms"] == instant_ms(first)
    assert (history["last_since_ms"], history["last_until_ms"]) == (
        instant_ms(third),
        instant_ms(OPEN),
    )
    assert (history["prev_since_ms"], history["prev_until_ms"]) == (
        instant_ms(second),
        instant_ms(third),
    )
    assert (history["last_transformation"], history["prev_transformation"]) == (
        "select 3",
        "select 2",
    )


def test_a_history_of_one_interval_has_no_previous_one_and_nothing_closed() -> None:
    history = edge_history(PLAN.changed[:1])

    assert history["first_closed"] == OPEN
    assert not {"prev_since_ms", "prev_until_ms", "prev_transformation"} & history.keys()


def test_a_trail_shows_the_described_asset_since_its_last_description() -> None:
    shown = trail("l01.t000001", PLAN)

    assert shown == {
        "id": "l01.t000001",
        "name": "l01.t000001",
        "type": "unknown",
        "tags": [],
        "placeholder": False,
        "shown_since": PLAN.described[-1],
    }
    assert asset("l01.t000001", PLAN)["description"] == "round 3"


def test_each_description_round_leaves_one_numbered_version() -> None:
    found = versions("a", PLAN)

    assert [(v["version"], v["at"], v["description"]) for v in found] == [
        (1, PLAN.described[0], "round 1"),
        (2, PLAN.described[1], "round 2"),
        (3, PLAN.described[2], "round 3"),
    ]
    assert not {"id", "created_at", "updated_at"} & found[0].keys()


def test_the_plain_edge_was_loaded_once_with_the_last_transformation() -> None:
    assert edge(PLAN, history=False)["updated_at"] == PLAN.loaded
    assert edge(PLAN, history=True)["updated_at"] == PLAN.changed[-1]
    assert edge(PLAN, history=False)["transformation"] == "select 3"


def test_batches_cover_every_row_once_in_order() -> None:
    assert list(batches(list(range(5)), size=2)) == [[0, 1], [2, 3], [4]]
