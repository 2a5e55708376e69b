import pytest

from service.domain.cursor import decode_cursor, encode_cursor
from service.errors import BadRequest
from service.http import parse_json_bytes
from service.ids import id_problem, new_id


@pytest.mark.parametrize(
    "good",
    [
        "model.jaffle_shop.orders",
        "s3://lake/raw/events.parquet",
        "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)",
        "a@b.c$d#e",
        "表.订单",
        "x" * 512,
    ],
)
def test_valid_ids(good: str) -> None:
    assert id_problem(good) is None


@pytest.mark.parametrize(
    "bad", ["", "a b", "a\tb", "a\nb", "a\x00b", "a\x7fb", "a\u2028b", "x" * 513]
)
def test_invalid_ids(bad: str) -> None:
    assert id_problem(bad) is not None


def test_server_ids_are_prefixed_ulids() -> None:
    made = new_id("tok")
    assert made.startswith("tok_") and len(made) == 4 + 26


def test_json_nesting_beyond_the_limit_is_a_bad_request() -> None:
    with pytest.raises(BadRequest):
        parse_json_bytes(b"[" * 1000 + b"]" * 1000)
    assert parse_json_bytes(b"[" * 50 + b"]" * 50) is not None
    # The limit is exact, counted through objects and lists alike, wherever the deep
    # branch sits among shallow ones.
    at_limit = b'[{"a": ' * 100 + b"1" + b"}]" * 100
    assert parse_json_bytes(at_limit) is not None
    with pytest.raises(BadRequest):
        parse_json_bytes(b"[1, {}, " + b'[{"a": ' * 100 + b"1" + b"}]" * 100 + b"]")


def test_invalid_utf8_and_empty_bodies_are_bad_requests() -> None:
    for raw in (b'{"a": "\xff"}', b"", b"   ", b"{", b"NaN"):
        with pytest.raises(BadRequest):
            parse_json_bytes(raw)


def test_cursors_round_trip_and_garbage_is_refused() -> None:
    assert decode_cursor(encode_cursor({"after": "x/y"}), ["after"]) == {"after": "x/y"}
    for garbage in ("!!!", "bm90IGpzb24", encode_cursor({"other": 1}), "é"):
        with pytest.raises(BadRequest):
            decode_cursor(garbage, ["after"])
