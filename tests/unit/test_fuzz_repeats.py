"""The API fuzz leaves out coverage cases that repeat another (tests/api_fuzz/repeats.py):
only those, so what each operation's own code reads is still tried.

The descriptions are the ones Schemathesis 4.32 wrote for these operations.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.api_fuzz.repeats import repeats_another_case

LINEAGE = "POST /api/v1/lineage"
OPENLINEAGE = "POST /api/v1/lineage/openlineage"


def case(label: str, description: str, phase: str = "coverage") -> SimpleNamespace:
    data = SimpleNamespace(description=description)
    return SimpleNamespace(
        meta=SimpleNamespace(phase=SimpleNamespace(name=phase, data=data)),
        operation=SimpleNamespace(label=label),
    )


@pytest.mark.parametrize(
    "description",
    [
        "inputs -> Array with invalid items: facets -> schema -> fields: Incorrect type",
        "outputs: Incorrect type",
        "job -> name: Incorrect type",
        "run -> runId: Incorrect type",
        "eventTime: Incorrect type",
        "producer: Incorrect type",
        "schemaURL: Incorrect type",
        "Object with valid 'outputs' value: Single-item array: Valid object",
        "Object with valid 'eventType' value: Enum value",
    ],
)
def test_a_run_events_fields_posted_as_an_edge_are_tried_at_the_openlineage_path(
    description: str,
) -> None:
    assert repeats_another_case(case(LINEAGE, description))
    # ... where the same description is kept.
    assert not repeats_another_case(case(OPENLINEAGE, description.replace("'outputs'", "'inputs'")))


@pytest.mark.parametrize(
    "description",
    [
        "Object with only required properties",
        "Object with all required properties and 'outputs'",
        "Missing required property: run",
        "eventType: Incorrect type",
        "eventType: Invalid enum value",
        "source -> name: Incorrect type",
        "columns -> Array with invalid items: kind: Invalid enum value",
        "Object with valid 'target' value: Valid object",
        "Incorrect type",
    ],
)
def test_an_edge_and_a_run_event_as_a_whole_are_still_tried_as_an_edge_post(
    description: str,
) -> None:
    assert not repeats_another_case(case(LINEAGE, description))


@pytest.mark.parametrize(
    ("description", "repeated"),
    [
        ("outputs -> Array with invalid items: facets -> schema -> fields: Incorrect type", True),
        ("outputs -> Array with invalid items: name: Incorrect type", True),
        ("outputs -> Array with invalid items: namespace: Incorrect type", True),
        ("inputs -> Array with invalid items: name: Incorrect type", False),
        ("outputs -> Array with invalid items: outputFacets -> Object with invalid", False),
        ("outputs -> Array with invalid items: Incorrect type", False),
        ("outputs: Incorrect type", False),
        ("Object with valid 'outputs' value: Single-item array: Valid object", False),
        ("Single-item array: Object with valid 'job' value: Valid object", True),
        ("Array with invalid items: job -> name: Incorrect type", True),
        ("Array with invalid items: Missing required property: run", False),
    ],
)
def test_an_outputs_dataset_fields_are_tried_in_the_inputs(
    description: str, repeated: bool
) -> None:
    assert repeats_another_case(case(OPENLINEAGE, description)) is repeated


def test_other_phases_and_operations_keep_every_case() -> None:
    description = "job -> name: Incorrect type"
    assert not repeats_another_case(case(LINEAGE, description, phase="fuzzing"))
    assert not repeats_another_case(case("POST /api/v1/lineage/bulk", description))
