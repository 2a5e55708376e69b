"""The lineage page's Export menu: the API's export (`service.api.lineage_export`)
behind the dashboard session, so a download from the page is the file the API and
the CLI write. The drawn graph's SVG and PNG are made in the browser
(`static/js/lineage_export.js`): they are pictures of what is drawn."""

from __future__ import annotations

from service.api import lineage_export
from service.dashboard.session_json import session_json_route
from service.domain.access.scopes import Scope
from service.routing import signed_in

routes = [
    session_json_route(
        "/ui/lineage/{asset_id}/export",
        lineage_export.export,
        name="ui_export_lineage",
        policy=signed_in(Scope.READ),
    ),
]
