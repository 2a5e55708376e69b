"""Every dashboard route, and the static files (scripts, styles, vendored libraries).

Static files are gzipped (the vendored graph libraries shrink to a third); pages are
not, because they carry CSRF tokens and new API tokens beside reflected input, which
is what a compression side channel (BREACH) needs.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute
from starlette.staticfiles import StaticFiles

from service.auth.oidc import Provider
from service.dashboard import (
    access_pages,
    asset_history,
    assets,
    events,
    governance,
    impact,
    ingest,
    lineage,
    lineage_export,
    overview,
    settings_pages,
    signin,
    sso,
)
from service.dashboard.render import HERE
from service.routing import PUBLIC, Mount

MODULES = (
    signin,
    overview,
    assets,
    asset_history,
    lineage,
    lineage_export,
    governance,
    events,
    ingest,
    impact,
    settings_pages,
    access_pages,
)


def routes(provider: Provider | None) -> list[BaseRoute]:
    """`provider`: the OpenID provider single sign-on goes through, None when it is off."""
    static = StaticFiles(directory=HERE / "static", follow_symlink=False)
    pages: list[BaseRoute] = [route for module in MODULES for route in module.routes]
    pages += sso.routes(provider)
    gzipped = GZipMiddleware(static, minimum_size=1024)
    return [*pages, Mount("/static", app=gzipped, name="static", policy=PUBLIC)]
