"""Garbage collection tuned for a serving process.

CPython's cyclic collector runs a young collection every 700 container allocations
and a full one, over the whole heap, every hundred of those or so. A serving
process holds about 100,000 long-lived objects from start-up (routes, pydantic
schemas, the OpenAPI document, the driver), and one traversal of a few hundred
nodes allocates thousands of short-lived dicts and lists. With the defaults,
requests promoted their own garbage into the older generations and paid for full
collections over start-up's objects: 0.49 ms of collection a request on a 436-node
traversal, measured in process; 0.02 ms with this tuning.

`gc.freeze()` moves everything alive once the app is built into a permanent
generation the collector never scans, and a young generation of 10,000 lets a
request's garbage be freed by reference counting before a collection comes. Cycles
are still collected, a little later.
"""

from __future__ import annotations

import gc

YOUNG = 10_000  # container allocations between young collections (CPython's default: 700)
MIDDLE = 20  # young collections between middle ones (default: 10)
OLD = 20  # middle collections between full ones (default: 10)


def tune_for_serving() -> None:
    """Call once the app is built, before the first request."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
