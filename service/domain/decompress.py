"""Gzip with a ceiling: a small upload that inflates past the limit (a gzip bomb)
is refused as soon as the output crosses it, without inflating the rest."""

from __future__ import annotations

import zlib
from typing import Protocol

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


class Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class Gunzipping:
    """The inflated bytes of a gzip stream, read a piece at a time: what `gunzip`
    returns, with the same refusals, without holding the whole output."""

    def __init__(self, source: Readable, limit: int) -> None:
        self._source = source
        self._limit = limit
        self._inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        self._pending = b""
        self._size = 0

    def read(self, size: int = -1) -> bytes:
        """Up to `size` bytes (CHUNK when negative); b"" once the gzip data ends."""
        if size == 0:  # a reader's probe for bytes or text
            return b""
        most = size if size > 0 else CHUNK
        while not self._inflater.eof:
            if not self._pending:
                self._pending = self._source.read(CHUNK)
            try:
                if self._pending:
                    data = self._inflater.decompress(self._pending, most)
                    self._pending = self._inflater.unconsumed_tail
                else:
                    data = self._inflater.flush()
                    if not self._inflater.eof:
                        raise Corrupt("the gzip data is truncated")
            except zlib.error as exc:
                raise Corrupt(f"the gzip data is damaged: {exc}") from exc
            self._size += len(data)
            if self._size > self._limit:
                raise TooLarge(f"the body inflates past {self._limit} bytes")
            if data:
                return data
        return b""
