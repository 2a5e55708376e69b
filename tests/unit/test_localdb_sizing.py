"""The local Neo4j's default memory follows the machine, within bounds."""

from __future__ import annotations

from pathlib import Path

from service.localdb import LocalNeo4j
from service.localdb.config import transaction_memory
from service.localdb.sizing import GIB, default_heap, default_pagecache, machine_ram


def test_an_eighth_of_the_ram_each() -> None:
    assert default_heap(16 * GIB) == "2048m"
    assert default_pagecache(16 * GIB) == "2048m"


def test_a_small_machine_gets_the_floor_and_a_large_one_the_cap() -> None:
    assert (default_heap(2 * GIB), default_pagecache(2 * GIB)) == ("512m", "512m")
    assert (default_heap(512 * GIB), default_pagecache(512 * GIB)) == ("8192m", "16384m")


def test_the_transaction_cap_stays_a_quarter_of_the_sized_heap() -> None:
    assert transaction_memory(default_heap(16 * GIB)) == "512m"


def test_unset_sizes_come_from_the_ram_and_given_ones_win(tmp_path: Path) -> None:
    ram = machine_ram()
    sized = LocalNeo4j(tmp_path, name="sizing")
    assert (sized.settings.heap, sized.settings.pagecache) == (
        default_heap(ram),
        default_pagecache(ram),
    )
    given = LocalNeo4j(tmp_path, name="sizing", heap="1g", pagecache="768m")
    assert (given.settings.heap, given.settings.pagecache) == ("1g", "768m")
