"""A setting is declared once, as a field with `env(...)`: reading it needs nothing else.

`Settings.from_env` walks the model and its groups (`service.environment`) and chooses
each field's parser from its type, so a field added to a group is read as soon as it
is declared, and a value that cannot be read names its variable.
"""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field, SecretStr

from service import environment
from service.environment import SettingsError
from service.settings import Settings, env


class Group(BaseModel):
    count: int = env("T_COUNT", 3, "a number")
    ratio: float = env("T_RATIO", 0.5, "a fraction")
    on: bool = env("T_ON", True, "a switch")
    fixed: int = 9  # no variable: always its default
    mode: Literal["fast", "slow"] = env("T_MODE", "fast", "a choice")
    delays: tuple[float, ...] = env("T_DELAYS", (1.0, 2.0), "numbers")


class Sample(BaseModel):
    name: str = env("T_NAME", "default", "text")
    where: str | None = env("T_WHERE", None, "optional text")
    password: SecretStr = env("T_PASSWORD", SecretStr(""), "a secret")
    token: SecretStr | None = env("T_TOKEN", None, "an optional secret")
    origins: tuple[str, ...] = env("T_ORIGINS", (), "a list")
    keys: tuple[SecretStr, ...] = env("T_KEYS", (), "secrets")
    pairs: tuple[tuple[str, str], ...] = env("T_PAIRS", (), "key=value pairs")
    group: Group = Field(default_factory=Group)


def test_a_field_declared_with_a_variable_is_read_by_its_type_with_no_other_declaration() -> None:
    read = environment.load(
        Sample,
        {
            "T_NAME": "x",
            "T_WHERE": "there",
            "T_PASSWORD": "p",
            "T_TOKEN": "t",
            "T_ORIGINS": " a, b ,",
            "T_KEYS": "k1, k2",
            "T_PAIRS": "Snow = s://x, pg=p://y",
            "T_COUNT": "7",
            "T_RATIO": "0.25",
            "T_ON": "off",
            "T_MODE": " SLOW ",
            "T_DELAYS": "3, 4.5",
        },
    )
    assert (read.name, read.where, read.origins) == ("x", "there", ("a", "b"))
    assert read.password.get_secret_value() == "p" and read.token is not None
    assert [key.get_secret_value() for key in read.keys] == ["k1", "k2"]
    assert read.pairs == (("Snow", "s://x"), ("pg", "p://y"))
    assert read.group == Group(count=7, ratio=0.25, on=False, mode="slow", delays=(3.0, 4.5))


def test_unset_keeps_every_default_and_a_field_without_a_variable_is_never_read() -> None:
    assert environment.load(Sample, {"fixed": "1", "FIXED": "1"}) == Sample()


def test_empty_numbers_lists_and_switches_keep_their_default_and_empty_text_is_empty() -> None:
    empty = dict.fromkeys(("T_COUNT", "T_RATIO", "T_ON", "T_MODE", "T_DELAYS", "T_ORIGINS"), "")
    assert environment.load(Sample, empty).group == Group()
    read = environment.load(Sample, {"T_NAME": "", "T_WHERE": "", "T_TOKEN": ""})
    assert (read.name, read.where, read.token) == ("", None, None)


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("T_COUNT", "many", "T_COUNT must be an integer, got 'many'"),
        ("T_RATIO", "half", "T_RATIO must be a number, got 'half'"),
        ("T_ON", "maybe", "T_ON must be true or false, got 'maybe'"),
        ("T_MODE", "warp", "T_MODE must be one of fast, slow, got 'warp'"),
        ("T_DELAYS", "1,x", "T_DELAYS must be comma-separated numbers, got '1,x'"),
        ("T_PAIRS", "a=b,c", "T_PAIRS: 'c' is not key=value"),
    ],
)
def test_a_value_that_cannot_be_read_names_its_variable_and_what_it_expects(
    variable: str, value: str, expected: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        environment.load(Sample, {variable: value})
    assert str(caught.value) == expected


def test_a_field_of_a_type_nobody_can_read_fails_at_the_first_read_even_unset() -> None:
    class Odd(BaseModel):
        when: complex = env("T_WHEN", 0j, "no parser for this")

    with pytest.raises(TypeError, match="complex"):
        environment.load(Odd, {})


def test_a_constraint_on_a_field_is_reported_under_its_variable() -> None:
    class Bounded(BaseModel):
        size: int = env("T_SIZE", 5, "a size", ge=1, le=10)

    for value, words in (("0", "at least 1"), ("11", "at most 10")):
        with pytest.raises(SettingsError) as caught:
            environment.load(Bounded, {"T_SIZE": value})
        assert str(caught.value) == f"T_SIZE must be {words}, got {value}"


def test_dataset_namespace_adapters_are_matched_lower_case() -> None:
    read = Settings.from_env({"GOVERNANCE_DATASET_NAMESPACES": "Snowflake=snowflake://A"})
    assert read.dataset_namespaces == (("snowflake", "snowflake://A"),)
