"""A serving process's app comes with the collector tuned (service.gc_tuning)."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator

import pytest

from service import cli, gc_tuning
from tests.support.process import SECRET_KEY


@pytest.fixture
def collector_restored() -> Iterator[None]:
    """The collector as it was, and the logging `serve_app` configures undone."""
    threshold = gc.get_threshold()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


@pytest.mark.usefixtures("collector_restored")
def test_the_served_app_is_built_before_the_heap_is_frozen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")  # never reached: no lifespan here
    monkeypatch.setenv("GOVERNANCE_SECRET_KEY", SECRET_KEY)
    app = cli.serve_app()
    assert gc.get_threshold() == (gc_tuning.YOUNG, gc_tuning.MIDDLE, gc_tuning.OLD)
    assert gc.get_freeze_count() > 10_000  # start-up's objects, the app's among them
    assert all(o is not app for o in gc.get_objects())  # frozen with them
