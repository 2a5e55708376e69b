"""Amundsen metadata service 3.13 on Neo4j 5: the config class its WSGI app loads
(METADATA_SVC_CONFIG_MODULE_CLASS=peer_config.PeerConfig), with two compatibility hooks
and no edit to the installed package.

This module runs inside Amundsen's own virtualenv (Flask, its neo4j 4.4 driver), never
in ours; bench/peers/amundsen_setup.py installs that virtualenv.

1. PROXY_CLIENT names ``Neo4j5Proxy``: Amundsen's lineage statements build lists with
   ``CASE WHEN x IS NULL THEN [] ELSE collect(...) END``, an aggregation whose
   surrounding expression uses a variable that is not a grouping key. Neo4j 4 accepted
   that; Neo4j 5 rejects the statement ("Aggregation column contains implicit grouping
   expressions"). The same list is ``collect(DISTINCT CASE WHEN x IS NOT NULL THEN ...
   END)``: collect skips nulls, so no match still gives []. The rewrite is applied to
   the statement text the proxy builds, so everything else in its query is unchanged.
2. INIT_CUSTOM_EXT_AND_ROUTES installs ``TolerantRequest``: its endpoints parse
   arguments with Flask-RESTful's reqparse, which reads ``request.json`` on every
   request. Under Werkzeug 3 that raises 415 Unsupported Media Type on a GET without a
   JSON body, so ``GET /table/<key>/lineage`` fails before reaching the proxy. A body
   that is absent now reads as None; a malformed JSON body is still a 400.
"""

from __future__ import annotations

import os
import re
from typing import Any

from flask import Flask, Request  # type: ignore[import-not-found]
from metadata_service.config import LocalConfig  # type: ignore[import-not-found]
from metadata_service.proxy.neo4j_proxy import Neo4jProxy  # type: ignore[import-not-found]

# CASE WHEN <var> IS NULL THEN [] ELSE collect(<distinct?> {<map>}) END
_NULL_GUARDED_COLLECT = re.compile(
    r"CASE\s+WHEN\s+(?P<var>\w+)\s+IS\s+NULL\s+THEN\s+\[\]\s+"
    r"ELSE\s+collect\(\s*(?P<distinct>distinct\s*)?(?P<map>\{[^{}]*\})\s*\)\s+END",
    re.IGNORECASE,
)


def port_to_neo4j5(statement: str) -> str:
    """The same statement with each null-guarded collect written the Neo4j 5 way."""
    return _NULL_GUARDED_COLLECT.sub(
        lambda m: (
            f"collect({'DISTINCT ' if m['distinct'] else ''}"
            f"CASE WHEN {m['var']} IS NOT NULL THEN {m['map']} END)"
        ),
        statement,
    )


class Neo4j5Proxy(Neo4jProxy):  # type: ignore[misc]
    """Amundsen's own Neo4j proxy; only the statement text is ported before it runs."""

    def _execute_cypher_query(self, *, statement: str, param_dict: dict[str, Any]) -> Any:
        return super()._execute_cypher_query(
            statement=port_to_neo4j5(statement), param_dict=param_dict
        )


class TolerantRequest(Request):  # type: ignore[misc]
    """A request whose missing JSON body reads as None instead of a 415."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # not a JSON content type: no body to parse
            return None
        return super().on_json_loading_failed(e)


def install_request_class(app: Flask) -> None:
    app.request_class = TolerantRequest


class PeerConfig(LocalConfig):  # type: ignore[misc]
    DEBUG = False
    LOG_LEVEL = "WARNING"
    SWAGGER_ENABLED = False
    PROXY_HOST = os.environ.get("PROXY_HOST", "bolt://127.0.0.1")
    PROXY_PORT = int(os.environ.get("PROXY_PORT", "7687"))
    PROXY_USER = os.environ.get("CREDENTIALS_PROXY_USER", "neo4j")
    PROXY_PASSWORD = os.environ.get("CREDENTIALS_PROXY_PASSWORD", "")
    PROXY_ENCRYPTED = False
    PROXY_CLIENT = "peer_config.Neo4j5Proxy"
    INIT_CUSTOM_EXT_AND_ROUTES = staticmethod(install_request_class)
