"""Reading an uploaded manifest as it streams: the same answer as reading it whole.

The streaming reader drops what `read_manifest` never reads, so for any document
`read_manifest` must give the same contents, or the same error at the same loc,
either way. What the streaming parser refuses goes to the whole-document parser,
so odd JSON gets exactly the answer it always got.
"""

from __future__ import annotations

import gzip
import io
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from service.domain.dbt.contents import ManifestContents
from service.domain.dbt.slim import Unstreamable, slim_manifest
from service.domain.dbt_manifest import ManifestError, read_manifest
from service.domain.decompress import Corrupt, Gunzipping, TooLarge, gunzip
from service.errors import PayloadTooLarge, Unprocessable
from service.store import manifest_upload
from service.store.manifest_upload import read_contents, read_document
from service.store.spool import Spooled, spooled_file
from tests.support.fuzzing import EXAMPLES, FUZZ, MANIFESTS, json_objects, mutations

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PUBLIC = Path("/work/shared/fixtures/dbt")
# The public manifests (tests/unit/test_dbt_public_manifests.py) when they are at hand.
REAL = sorted(FIXTURES.glob("dbt_*/manifest*.json*")) + sorted(PUBLIC.glob("gen_*.json*"))


def _bytes(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def _answer(document: Any) -> ManifestContents | tuple[str, tuple[Any, ...]]:
    try:
        return read_manifest(document, column_lineage=False)
    except ManifestError as exc:
        return exc.msg, exc.loc


def _both_ways(raw: bytes) -> tuple[Any, Any]:
    """As the service reads it: streamed, else (a subnormal float, say) whole."""
    try:
        streamed = slim_manifest(io.BytesIO(raw))
    except Unstreamable:
        streamed = orjson.loads(raw)
    return _answer(orjson.loads(raw)), _answer(streamed)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_manifests_read_the_same_streamed_and_whole(path: Path) -> None:
    raw = _bytes(path)
    whole = read_manifest(orjson.loads(raw))
    streamed = read_manifest(slim_manifest(io.BytesIO(raw)))
    assert streamed == whole
    assert len(orjson.dumps(slim_manifest(io.BytesIO(raw)))) < len(raw) / 2


@pytest.mark.parametrize("index", range(len(MANIFESTS)))
def test_mutated_manifests_read_the_same_or_fail_at_the_same_loc(index: int) -> None:
    @settings(FUZZ, max_examples=max(EXAMPLES // 5, 1))  # two reads of a whole manifest each
    @given(document=mutations(MANIFESTS[index], most=6))
    def run(document: Any) -> None:
        try:
            raw = orjson.dumps(document)
        except orjson.JSONEncodeError:  # nested deeper than orjson writes
            assume(False)
            raise
        whole, streamed = _both_ways(raw)
        assert streamed == whole

    run()


@FUZZ
@given(document=json_objects.map(lambda d: {"nodes": {}, **d}) | st.builds(dict))
def test_random_documents_read_the_same_streamed_and_whole(document: Any) -> None:
    whole, streamed = _both_ways(orjson.dumps(document))
    assert streamed == whole


def _node(**fields: Any) -> bytes:
    node = {"resource_type": "model", "name": "m", **fields}
    return orjson.dumps({"nodes": {"model.p.m": node}, "macros": {"x": {"big": "y" * 100}}})


def test_only_what_the_reader_reads_is_kept() -> None:
    raw = _node(
        raw_code="select 1 -- raw",
        compiled_code="select 1",
        checksum={"name": "sha256", "checksum": "ab"},
        config={"enabled": True, "post-hook": ["x"], "meta": {"owner": "a", "other": 1}},
        depends_on={"nodes": ["source.p.s.t"], "macros": ["macro.x"]},
        columns={"c": {"name": "c", "data_type": "int", "constraints": [], "meta": {}}},
    )
    assert slim_manifest(io.BytesIO(raw)) == {
        "nodes": {
            "model.p.m": {
                "resource_type": "model",
                "name": "m",
                "compiled_code": "select 1",
                "config": {"enabled": True, "meta": {"owner": "a"}},
                "depends_on": {"nodes": ["source.p.s.t"]},
                "columns": {"c": {"name": "c", "data_type": "int"}},
            }
        }
    }


@pytest.mark.parametrize(
    ("code", "kept"),
    [
        ({"compiled_code": "a", "raw_code": "b", "raw_sql": "c"}, {"compiled_code"}),
        (
            {"compiled_code": " ", "compiled_sql": "a", "raw_code": "b"},
            {"compiled_code", "compiled_sql"},
        ),
        ({"compiled_code": None, "raw_code": "b", "raw_sql": "c"}, {"compiled_code", "raw_code"}),
        (
            {"compiled_code": "", "raw_code": "", "raw_sql": "c"},
            {"compiled_code", "raw_code", "raw_sql"},
        ),
        ({"compiled_code": 3, "raw_code": "b"}, {"compiled_code", "raw_code"}),
    ],
)
def test_code_after_the_one_the_lineage_uses_is_dropped(
    code: dict[str, Any], kept: set[str]
) -> None:
    node = slim_manifest(io.BytesIO(_node(**code)))["nodes"]["model.p.m"]
    assert set(node) - {"resource_type", "name"} == kept


def test_disabled_versions_keep_only_their_id() -> None:
    raw = orjson.dumps(
        {"nodes": {}, "disabled": {"model.p.x": [{"unique_id": "model.p.x", "raw_code": "s"}, 7]}}
    )
    assert slim_manifest(io.BytesIO(raw))["disabled"] == {
        "model.p.x": [{"unique_id": "model.p.x"}, 7]
    }
    old = orjson.dumps({"nodes": {}, "disabled": [{"unique_id": "model.p.x", "name": "x"}]})
    assert slim_manifest(io.BytesIO(old))["disabled"] == [{"unique_id": "model.p.x"}]


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b'{"nodes": {}} trailing',
        b'{"nodes": {"a": 1}',
        b'{"nodes": {}, "meta": 123456789012345678901234567890}',  # orjson reads a float
        b"[" * 1100 + b"]" * 1100,  # deeper than orjson reads
    ],
)
def test_what_the_streaming_parser_refuses_is_unstreamable(raw: bytes) -> None:
    with pytest.raises(Unstreamable):
        slim_manifest(io.BytesIO(raw))


def _spooled(raw: bytes, said_gzip: bool = False) -> Spooled:
    return spooled_file(io.BytesIO(raw), said_gzip)


def test_an_unstreamable_body_gets_the_whole_document_answer() -> None:
    big = b'{"nodes": {}, "metadata": {"project_name": "p", "x": 123456789012345678901234567890}}'
    assert read_contents(_spooled(big), 1 << 20, None, False).project == "p"
    with pytest.raises(Unprocessable) as refused:
        read_contents(_spooled(b'{"nodes": {}'), 1 << 20, None, False)
    assert "the body is not JSON" in str(refused.value.detail)


def test_a_gzip_body_is_inflated_as_it_is_read_and_bounded() -> None:
    raw = _bytes(REAL[0])
    streamed = slim_manifest(Gunzipping(io.BytesIO(gzip.compress(raw)), len(raw)))
    assert streamed == slim_manifest(io.BytesIO(raw))
    assert read_contents(_spooled(gzip.compress(raw)), len(raw), None, False) == read_contents(
        _spooled(raw), len(raw), None, False
    )
    with pytest.raises(PayloadTooLarge):
        read_document(_spooled(gzip.compress(raw), True), len(raw) - 1)
    bomb = gzip.compress(b"[" + b" " * (8 << 20) + b"]")
    with pytest.raises(PayloadTooLarge):
        read_document(_spooled(bomb, True), 4 << 20)
    with pytest.raises(Unprocessable) as damaged:
        read_document(_spooled(gzip.compress(raw)[:-100], True), len(raw))
    assert "the gzip data is truncated" in str(damaged.value.detail)


@pytest.mark.parametrize("size", [1, 7, 65536])
@pytest.mark.parametrize("data", [b"", b"{}", os.urandom(300_000), b"a" * 3_000_000])
def test_gunzipping_reads_what_gunzip_returns(size: int, data: bytes) -> None:
    reader, out = Gunzipping(io.BytesIO(gzip.compress(data)), 1 << 30), bytearray()
    assert reader.read(0) == b""
    while chunk := reader.read(size):
        out += chunk
    assert bytes(out) == data == gunzip(gzip.compress(data), 1 << 30)


@pytest.mark.parametrize(
    ("damage", "limit", "error"),
    [
        (lambda z: z[:-3], 1 << 30, Corrupt),
        (lambda z: z[:10] + b"\0" * 20 + z[30:], 1 << 30, Corrupt),
        (lambda z: z, 1_000_000, TooLarge),
        (lambda z: z[:-3], 1_000_000, TooLarge),
    ],
)
def test_gunzipping_refuses_what_gunzip_refuses(
    damage: Any, limit: int, error: type[Exception]
) -> None:
    body = damage(gzip.compress(b"a" * 3_000_000))
    with pytest.raises(error) as whole:
        gunzip(body, limit)
    with pytest.raises(error) as streamed:
        _drain(Gunzipping(io.BytesIO(body), limit))
    assert str(streamed.value) == str(whole.value)


def _drain(reader: Gunzipping) -> None:
    while reader.read(65536):
        pass


def test_a_small_body_is_parsed_whole_and_a_larger_one_streams(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = _bytes(REAL[0])
    document = orjson.loads(raw)
    for said_gzip, body in ((False, raw), (True, gzip.compress(raw))):
        monkeypatch.setattr(manifest_upload, "WHOLE_BYTES", len(raw))
        assert read_document(_spooled(body, said_gzip), len(raw)) == document
        monkeypatch.setattr(manifest_upload, "WHOLE_BYTES", len(raw) - 1)
        assert read_document(_spooled(body, said_gzip), len(raw)) == slim_manifest(io.BytesIO(raw))
    # a gzip body small as sent but inflating past the threshold streams, within the limit
    monkeypatch.setattr(manifest_upload, "WHOLE_BYTES", len(raw) // 2)
    small = gzip.compress(raw)
    assert len(small) <= len(raw) // 2
    assert read_document(_spooled(small, True), len(raw)) == slim_manifest(io.BytesIO(raw))
    with pytest.raises(PayloadTooLarge):
        read_document(_spooled(small, True), len(raw) // 2)
    with pytest.raises(Unprocessable) as damaged:
        read_document(_spooled(small[:-100], True), len(raw))
    assert "the gzip data is truncated" in str(damaged.value.detail)
