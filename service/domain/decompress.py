"""Gzip with a ceiling: a small upload that inflates past the limit (a gzip bomb)
is refused as soon as the output crosses it, without inflating the rest."""

from __future__ import annotations

import zlib

GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 1 << 20


class TooLarge(ValueError):
    pass


class Corrupt(ValueError):
    pass


def gunzip(data: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    out = bytearray()
    pending = data
    try:
        while pending:
            out += inflater.decompress(pending, CHUNK)
            if len(out) > limit:
                raise TooLarge(f"the body inflates past {limit} bytes")
            pending = inflater.unconsumed_tail
            if inflater.eof:
                break
        out += inflater.flush()
    except zlib.error as exc:
        raise Corrupt(f"the gzip data is damaged: {exc}") from exc
    if not inflater.eof:
        raise Corrupt("the gzip data is truncated")
    if len(out) > limit:
        raise TooLarge(f"the body inflates past {limit} bytes")
    return bytes(out)
