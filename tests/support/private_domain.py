"""The private domain several HTTP tests start from, made through the API.

`vaultdom` is private, owned by team `vaultkeepers`, and holds every asset whose id
starts with `vaultasset` (a namespace rule); assets named otherwise are in no domain.
Two global viewers read it: `outsider` in no team, `insider` in the owning team.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from service.settings import Settings
from tests.support.dashboard import make_user
from tests.support.tokens import token_of

TEAM = "vaultkeepers"
DOMAIN = "vaultdom"
NAMESPACE = "vaultasset"


@dataclass(frozen=True)
class PrivateDomain:
    outsider: str  # a read token of a global viewer with no team
    insider: str  # a read token of a global viewer in the owning team
    outsider_id: str
    insider_id: str


def make_private_domain(
    admin: httpx.Client, settings: Settings, assets: Mapping[str, str]
) -> PrivateDomain:
    """The domain, the assets `assets` ({id: name}) written after it (so its rule places
    them as any write does), and its two readers."""
    team = admin.put(f"/teams/{TEAM}", json={"display_name": "Keepers"})
    assert team.status_code == 201, team.text
    rules = [{"kind": "namespace", "value": NAMESPACE}]
    domain = admin.put(
        f"/domains/{DOMAIN}", json={"owner_team": TEAM, "private": True, "rules": rules}
    )
    assert domain.status_code == 201, domain.text
    for asset_id, name in assets.items():
        made = admin.post("/assets", json={"id": asset_id, "name": name, "type": "table"})
        assert made.status_code == 201, made.text
        assert made.json()["domain"] == (DOMAIN if asset_id.startswith(NAMESPACE) else None)
    outsider = make_user(admin, "outsider", "viewer")
    insider = make_user(admin, "insider", "viewer")
    member = admin.put(f"/teams/{TEAM}/members/{insider['id']}")
    assert member.status_code == 204, member.text
    return PrivateDomain(
        outsider=token_of(settings, outsider["id"], "read"),
        insider=token_of(settings, insider["id"], "read"),
        outsider_id=outsider["id"],
        insider_id=insider["id"],
    )
