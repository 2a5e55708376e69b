"""The blocking client in _sync/ is written by scripts/unasync.py from the asyncio
one in _async/; these tests fail when someone edited one without the other."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "unasync.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unasync", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_blocking_client_is_up_to_date() -> None:
    assert load_script().stale() == [], "run: python scripts/unasync.py"


def test_nothing_asynchronous_is_left_in_the_blocking_client() -> None:
    for name, text in load_script().expected().items():
        leftovers = re.findall(r"\b(async|await|asyncio|Async\w+|Awaitable)\b", text)
        assert leftovers == [], f"_sync/{name}: {sorted(set(leftovers))}"


def test_the_rewrite_rules() -> None:
    unasync = load_script().unasync
    source = (
        "from collections.abc import AsyncIterator, Awaitable, Callable\n"
        "async def f(x: Callable[[], Awaitable[list[int]]]) -> AsyncIterator[int]:\n"
        "    async with AsyncThing() as t:\n"
        "        async for y in t.aiter_lines():\n"
        "            yield await anext(y)\n"
        "    await t.aclose()\n"
    )
    assert unasync(source) == (
        "from collections.abc import Iterator, Callable\n"
        "def f(x: Callable[[], list[int]]) -> Iterator[int]:\n"
        "    with Thing() as t:\n"
        "        for y in t.iter_lines():\n"
        "            yield next(y)\n"
        "    t.close()\n"
    )
