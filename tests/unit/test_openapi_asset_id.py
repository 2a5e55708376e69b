"""The OpenAPI document's `AssetId` schema says what `service.ids.id_problem` checks,
and `DatasetIdPart` what an OpenLineage dataset's namespace or name may be."""

from __future__ import annotations

import re

from service.ids import MAX_ID_LENGTH, id_problem
from service.openapi import asset_id_schema, dataset_id_part_schema


def test_the_pattern_refuses_exactly_the_characters_the_id_rule_refuses() -> None:
    pattern = re.compile(asset_id_schema()["pattern"])
    disagree = [
        f"U+{code:04X}"
        for code in [*range(0x10000), *range(0x10000, 0x110000, 7)]  # the BMP, astral sampled
        if (pattern.fullmatch(chr(code)) is None) != (id_problem(chr(code)) is not None)
    ]
    assert disagree == []


def test_the_length_bounds_are_the_rule_s() -> None:
    schema = asset_id_schema()
    assert (schema["minLength"], schema["maxLength"]) == (1, MAX_ID_LENGTH)
    assert id_problem("a" * MAX_ID_LENGTH) is None
    assert id_problem("a" * (MAX_ID_LENGTH + 1)) is not None


def test_a_dataset_part_holds_an_id_s_characters_and_leaves_room_for_the_other() -> None:
    part, asset_id = dataset_id_part_schema(), asset_id_schema()
    assert part["pattern"] == asset_id["pattern"]
    # the shortest other part and the slash fill the id to its length
    assert part["minLength"] == 1 and part["maxLength"] + 1 + 1 == MAX_ID_LENGTH
