"""Show that each compatibility hook in peer_config is needed: the same lineage request
through Flask's test client with both hooks, then without each one.

    python check_hooks.py <table key>   (in Amundsen's virtualenv, PYTHONPATH=this dir)

Prints one JSON object per configuration: its name, the status and the start of the
body. Reads the proxy settings from the environment, as peer_config does.
"""

from __future__ import annotations

import json
import sys

from metadata_service import create_app, proxy  # type: ignore[import-not-found]
from peer_config import PeerConfig  # type: ignore[import-not-found]


class WithoutRequestHook(PeerConfig):  # type: ignore[misc]
    INIT_CUSTOM_EXT_AND_ROUTES = None


class WithoutProxyHook(PeerConfig):  # type: ignore[misc]
    PROXY_CLIENT = "metadata_service.proxy.neo4j_proxy.Neo4jProxy"


def main() -> None:
    key = sys.argv[1]
    for config in (PeerConfig, WithoutRequestHook, WithoutProxyHook):
        # The proxy is a process-wide singleton: reset it so each config makes its own.
        proxy._proxy_client = None
        app = create_app(config_module_class=config)  # Flask's from_object takes a class
        response = app.test_client().get(
            f"/table/{key}/lineage", query_string={"direction": "upstream", "depth": 2}
        )
        body = response.get_data(as_text=True)
        print(
            json.dumps(
                {"config": config.__name__, "status": response.status_code, "body": body[:160]}
            )
        )


if __name__ == "__main__":
    main()
