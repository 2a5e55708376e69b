"""The JSON Schema pattern of a name people read says what `service.ids.text_problem`
refuses, character by character."""

from __future__ import annotations

import re

from service.ids import text_problem
from service.models.common import plain_text_pattern

SURROGATES = range(0xD800, 0xE000)  # JSON cannot carry a lone one to the pattern


def test_the_pattern_refuses_exactly_the_characters_the_text_rule_refuses() -> None:
    pattern = re.compile(plain_text_pattern())
    disagree = [
        f"U+{code:04X}"
        for code in [*range(0x10000), *range(0x10000, 0x110000, 7)]  # the BMP, astral sampled
        if code not in SURROGATES
        and (pattern.fullmatch(chr(code)) is None) != (text_problem(chr(code)) is not None)
    ]
    assert disagree == []


def test_a_name_with_spaces_and_an_emoji_matches() -> None:
    assert re.fullmatch(plain_text_pattern(), "Data team 🚀") is not None
