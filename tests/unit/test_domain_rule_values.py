"""`asset` (and `namespace`) rule values are spelled as the service spells asset ids, so
a value typed in another Unicode form still names the asset."""

from __future__ import annotations

import unicodedata

import pytest
from pydantic import ValidationError

from service.domain.domains import Rule, compile_rules, domain_for
from service.models.domains import DomainPut

COMPOSED = "café.orders"  # é as one code point, as asset ids are kept
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)  # e + a combining accent


def _put(*rules: dict[str, str]) -> DomainPut:
    return DomainPut.model_validate({"owner_team": "fin", "rules": list(rules)})


def test_an_asset_rule_value_is_kept_in_nfc() -> None:
    assert DECOMPOSED != COMPOSED
    put = _put({"kind": "asset", "value": DECOMPOSED}, {"kind": "namespace", "value": "é"})
    assert [r.value for r in put.rules] == [COMPOSED, unicodedata.normalize("NFC", "é")]


def test_a_tag_or_project_value_is_kept_as_written() -> None:
    put = _put({"kind": "tag", "value": DECOMPOSED}, {"kind": "dbt_project", "value": DECOMPOSED})
    assert [r.value for r in put.rules] == [DECOMPOSED, DECOMPOSED]


@pytest.mark.parametrize(
    ("value", "said"),
    [("two words", "whitespace"), ("zero\u200bwidth", "invisible"), ("x" * 513, "at most 512")],
)
def test_an_asset_rule_value_that_can_be_no_asset_id_is_refused_at_the_value(
    value: str, said: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        _put({"kind": "asset", "value": value})
    error = caught.value.errors()[0]
    assert error["loc"] == ("rules", 0, "value")
    assert said in error["msg"]


def test_rules_kept_before_values_were_normalised_still_place_the_asset() -> None:
    rules = compile_rules({"finance": [Rule("asset", DECOMPOSED)]})
    assert domain_for({"id": COMPOSED}, rules) == "finance"
    prefixed = compile_rules({"cafe": [Rule("namespace", unicodedata.normalize("NFD", "café"))]})
    assert domain_for({"id": COMPOSED}, prefixed) == "cafe"
