"""Default memory for a local instance, from the machine's RAM.

A fixed 1g heap and 1g page cache starve a catalogue of a million assets on a
large machine and overcommit a small one. An eighth of the RAM each leaves the
rest to the service, the OS (which caches the full-text index files) and
whatever else runs; the floors keep Neo4j able to start, the caps keep a big
machine from handing a dev database most of its memory.
"""

from __future__ import annotations

import os

MIB = 1024**2
GIB = 1024**3
HEAP_RANGE = (512 * MIB, 8 * GIB)
PAGECACHE_RANGE = (512 * MIB, 16 * GIB)
_FALLBACK_RAM = 4 * GIB  # when the OS does not say: sizes a small machine would get


def _clamp(value: int, bounds: tuple[int, int]) -> int:
    return max(bounds[0], min(bounds[1], value))


def _mib(size: int) -> str:
    return f"{size // MIB}m"


def default_heap(ram: int) -> str:
    return _mib(_clamp(ram // 8, HEAP_RANGE))


def default_pagecache(ram: int) -> str:
    return _mib(_clamp(ram // 8, PAGECACHE_RANGE))


def machine_ram() -> int:
    """Physical memory in bytes, or a small machine's if the OS does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return _FALLBACK_RAM
