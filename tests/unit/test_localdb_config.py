"""neo4j.conf rendering for the local server: loopback only, HTTP off, hardening, memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.localdb import LocalNeo4jError
from service.localdb.config import (
    ServerSettings,
    jvm_options,
    render_neo4j_conf,
    transaction_memory,
)
from service.localdb.layout import InstanceLayout

HOME = Path("/cache/instances/dev")


def settings(port: int = 17687, heap: str = "1g", pagecache: str = "512m") -> ServerSettings:
    return ServerSettings(bolt_port=port, heap=heap, pagecache=pagecache)


def parse(conf: str) -> dict[str, str]:
    """neo4j.conf as a dict, failing on duplicate keys (which would make one line dead)."""
    values: dict[str, str] = {}
    for line in conf.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a setting: {line!r}"
        assert key not in values, f"duplicate setting {key}"
        values[key] = value
    return values


@pytest.fixture
def conf() -> dict[str, str]:
    return parse(render_neo4j_conf(InstanceLayout(HOME), settings()))


def test_listens_on_loopback_only(conf: dict[str, str]) -> None:
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:17687"
    assert conf["server.bolt.advertised_address"] == "127.0.0.1:17687"
    addresses = [v for k, v in conf.items() if k.endswith("_address")]
    assert addresses, "no address settings rendered"
    assert all(v.startswith("127.0.0.1") for v in addresses)


def test_http_and_https_connectors_are_off(conf: dict[str, str]) -> None:
    assert conf["server.http.enabled"] == "false"
    assert conf["server.https.enabled"] == "false"
    assert conf["server.bolt.enabled"] == "true"


def test_security_hardening(conf: dict[str, str]) -> None:
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["dbms.security.allow_csv_import_from_file_urls"] == "false"
    assert conf["db.transaction.timeout"] == "60s"
    assert conf["dbms.usage_report.enabled"] == "false"
    assert conf["server.config.strict_validation.enabled"] == "true"


def test_directories_stay_inside_the_instance_home(conf: dict[str, str]) -> None:
    directories = {k: v for k, v in conf.items() if k.startswith("server.directories.")}
    assert directories["server.directories.import"] == str(HOME / "import")
    assert directories["server.directories.data"] == str(HOME / "data")
    assert directories["server.directories.logs"] == str(HOME / "logs")
    assert all(Path(v).is_relative_to(HOME) for v in directories.values())


def test_memory_values_come_from_the_settings() -> None:
    conf = parse(render_neo4j_conf(InstanceLayout(HOME), settings(heap="768M", pagecache="2G")))
    assert conf["server.memory.heap.initial_size"] == "768m"
    assert conf["server.memory.heap.max_size"] == "768m"
    assert conf["server.memory.pagecache.size"] == "2g"
    assert conf["db.memory.transaction.max"] == "192m"  # a quarter of the heap


def test_one_transaction_may_use_a_quarter_of_the_heap() -> None:
    assert transaction_memory("1g") == "256m"
    assert transaction_memory("2G") == "512m"
    assert transaction_memory("512000k") == "125m"
    assert transaction_memory("32m") == "16m"  # never below 16 MiB


def test_jvm_heap_matches_the_conf_and_neo4j_module_access_is_granted() -> None:
    options = jvm_options(InstanceLayout(HOME), settings(heap="768m"))
    assert "-Xms768m" in options
    assert "-Xmx768m" in options
    assert "-XX:+UseG1GC" in options
    assert "--add-opens=java.base/java.nio=ALL-UNNAMED" in options
    assert "--add-opens=java.base/java.io=ALL-UNNAMED" in options
    assert "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED" in options
    assert not any(o.startswith("-Xmx") and o != "-Xmx768m" for o in options)


def test_port_is_rendered_and_exposed_as_uri() -> None:
    s = settings(port=17688)
    assert parse(render_neo4j_conf(InstanceLayout(HOME), s))["server.bolt.listen_address"] == (
        "127.0.0.1:17688"
    )
    assert s.bolt_uri == "bolt://127.0.0.1:17688"


@pytest.mark.parametrize("size", ["", "1.5g", "-1g", "0", "1gb", "1 g", "one"])
def test_invalid_memory_sizes_are_rejected(size: str) -> None:
    with pytest.raises(LocalNeo4jError, match="invalid heap size"):
        settings(heap=size)


@pytest.mark.parametrize("port", [0, -1, 65536])
def test_invalid_ports_are_rejected(port: int) -> None:
    with pytest.raises(LocalNeo4jError, match="invalid Bolt port"):
        settings(port=port)


def test_a_path_with_a_newline_cannot_inject_settings() -> None:
    layout = InstanceLayout(Path("/srv/evil\nserver.http.enabled=true"))
    with pytest.raises(LocalNeo4jError, match="newline"):
        render_neo4j_conf(layout, settings())


def test_the_jit_inlines_as_hotspot_does_unless_asked_to_be_lean() -> None:
    stock = jvm_options(InstanceLayout(HOME), settings())
    assert not [o for o in stock if "Inline" in o]
    lean = ServerSettings(bolt_port=17687, heap="1g", pagecache="512m", lean_inlining=True)
    options = jvm_options(InstanceLayout(HOME), lean)
    assert options[: len(stock)] == stock
    assert options[len(stock) :] == [
        "-XX:FreqInlineSize=35",
        "-XX:MaxInlineLevel=2",
        "-XX:InlineSmallCode=500",
        "-XX:MaxInlineSize=20",
    ]


def test_plans_follow_statistics_and_sizes_unless_asked_to_stay(conf: dict[str, str]) -> None:
    assert "dbms.cypher.min_replan_interval" not in conf
    assert "internal.cypher.use_parameter_size" not in conf
    stable = ServerSettings(bolt_port=17687, heap="1g", pagecache="512m", stable_plans=True)
    rendered = parse(render_neo4j_conf(InstanceLayout(HOME), stable))
    assert rendered["dbms.cypher.min_replan_interval"] == "24h"
    assert rendered["internal.cypher.use_parameter_size"] == "false"
