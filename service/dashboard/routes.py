"""Every dashboard route, and the static files (scripts, styles, vendored libraries)."""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from service.dashboard import (
    assets,
    events,
    governance,
    ingest,
    lineage,
    overview,
    settings_pages,
    signin,
)
from service.dashboard.render import HERE

MODULES = (signin, overview, assets, lineage, governance, events, ingest, settings_pages)


def routes() -> list[BaseRoute]:
    static = StaticFiles(directory=HERE / "static", follow_symlink=False)
    pages: list[BaseRoute] = [route for module in MODULES for route in module.routes]
    return [*pages, Mount("/static", app=static, name="static")]
