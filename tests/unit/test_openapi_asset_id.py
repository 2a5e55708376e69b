"""The OpenAPI document's `AssetId` schema says what `service.ids.id_problem` checks."""

from __future__ import annotations

import re

from service.ids import MAX_ID_LENGTH, id_problem
from service.openapi import asset_id_schema


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
