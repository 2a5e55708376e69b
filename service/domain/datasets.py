"""Datasets named as OpenLineage names them (`website/docs/spec/naming.md`), so that one
table written by Spark, modelled by dbt and read by Airflow has one identity.

Namespace: stripped; scheme and host lower-cased (RFC 3986 §3.1, §3.2.2); trailing `/`
dropped; `s3a`/`s3n` → `s3`, `gcs` → `gs`, `abfs` → `abfss`, `wasb` → `wasbs` (the Java
client's `FilesystemDatasetUtils`), `postgresql` → `postgres`. A host without a port gets
the default where the spec's namespace has a port and the server one default: postgres
5432, mysql 3306, redshift 5439, trino 8080, kafka 9092, mssql/sqlserver 1433, oracle 1521
(not hive: 9083 or 10000; hdfs: 8020 or 9000; spark: dbt-ol picks 443 or 10001). Redshift
`cluster.id.region.redshift.amazonaws.com` is the spec's `cluster.region` (as Airflow
derives it). A Snowflake host is the account as dbt-ol's `fix_account_name` spells it:
`orgname-account` alone, a bare locator completed to `locator.us-west-1.aws`. `bigquery`
has no host; `duckdb://`'s host is a file path, its case kept.

Name, by the namespace's scheme (else the dbt adapter). A SQL name splits on `.`; a part
may be quoted (`"a.b"`, `` `a.b` ``, `[a.b]`) and then keeps its dot.
- snowflake, oracle, db2: unquoted parts upper-cased, quoted keep case (Snowflake,
  "Identifier requirements": unquoted identifiers are stored and resolved in upper case).
- postgres: unquoted parts lower-cased, quoted keep case (PostgreSQL manual §4.1.1).
- redshift: all lower-cased (case-insensitive, quoted too, by default).
- trino, duckdb, databricks, spark, hive, athena, unitycatalog: all lower-cased; each
  resolves identifiers case-insensitively, quoted or not.
- mysql: case kept, as table names are files, case-sensitive on Linux
  (`lower_case_table_names=0`); mssql/sqlserver: kept, the collation decides.
- bigquery: backticks only group (`` `p.d`.t ``); the project id lower-cased (ids are lower
  case); dataset and table keep case (both case-sensitive).
A part is written bare when it reads back the same, else quoted (`"MixedCase"`), so the
form is canonical: normalising it again changes nothing.
Paths (s3, gs, abfss, wasbs, file, hdfs, dbfs): `//` collapsed, leading and trailing `/`
dropped (a bucket's root is `/`), case kept. Kafka topics, unknown schemes: as given.

Both parts keep the asset id's rules (`service.ids`: no whitespace, control or format
characters), at most 510 characters each and 512 as `namespace/name`, the id given to an
asset made for the dataset.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from service.ids import MAX_ID_LENGTH, id_problem

MAX_PART = MAX_ID_LENGTH - 2
Field = Literal["namespace", "name"]

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")
_ADAPTER = re.compile(r"[a-z][a-z0-9_-]*")
_SCHEME_ALIASES = {
    "s3a": "s3",
    "s3n": "s3",
    "gcs": "gs",
    "abfs": "abfss",
    "wasb": "wasbs",
    "postgresql": "postgres",
}
_DEFAULT_PORTS = {
    "postgres": 5432,
    "mysql": 3306,
    "redshift": 5439,
    "trino": 8080,
    "kafka": 9092,
    "mssql": 1433,
    "sqlserver": 1433,
    "oracle": 1521,
}
# A scheme (after its alias) or a dbt adapter type -> the platform it names.
_PLATFORMS = {
    **{p: p for p in ("snowflake", "bigquery", "postgres", "redshift", "mysql", "trino")},
    **{p: p for p in ("duckdb", "databricks", "hive", "spark", "oracle", "db2", "athena")},
    **{p: p for p in ("unitycatalog", "sqlserver", "kafka", "s3", "hdfs", "dbfs", "file")},
    **{"mssql": "sqlserver", "awsathena": "athena", "gs": "gcs", "abfss": "abfs"},
    "wasbs": "wasb",
}
# How a SQL platform folds a part: "upper"/"lower" if unquoted, "lower!" always, None never.
_SQL_CASE: dict[str, str | None] = {
    **dict.fromkeys(("snowflake", "oracle", "db2"), "upper"),
    **dict.fromkeys(("redshift", "trino", "duckdb", "databricks", "spark", "hive"), "lower!"),
    **dict.fromkeys(("athena", "unitycatalog"), "lower!"),
    **{"postgres": "lower", "mysql": None, "sqlserver": None},
}
_PATHS = {"s3", "gcs", "abfs", "wasb", "file", "hdfs", "dbfs"}
_BACKTICKED = {"mysql", "databricks", "spark", "hive"}
_CLOSING = {'"': '"', "`": "`", "[": "]"}
_LOCATOR_DEFAULTS = ["us-west-1", "aws"]


@dataclass(frozen=True)
class DatasetRef:
    """A dataset in canonical form; build it with `normalise`."""

    namespace: str
    name: str

    @property
    def key(self) -> str:
        """The unique identity; a newline appears in neither part, so it cannot be forged."""
        return f"{self.namespace}\n{self.name}"

    @property
    def default_id(self) -> str:
        """The id of an asset made for this dataset."""
        return f"{self.namespace}/{self.name}"


class DatasetNameError(ValueError):
    """A namespace or name that names no dataset; `field` says which, for the API's `loc`."""

    def __init__(self, field: Field, problem: str) -> None:
        super().__init__(problem)
        self.field: Field = field


@functools.lru_cache(maxsize=65_536)
def normalise(namespace: str, name: str) -> DatasetRef:
    """The dataset in canonical form; DatasetNameError names the part that is wrong.
    Remembered: a batch of events names the same few datasets over and over (each
    input again in column lineage), and the answer depends on the text alone."""
    return _normalise(namespace, name, adapter=None)


def platform_of(namespace: str) -> str | None:
    """The platform a namespace's scheme names (`gs://b` is gcs), or None when unknown."""
    scheme = namespace.strip().split(":", 1)[0].lower()
    return _PLATFORMS.get(_SCHEME_ALIASES.get(scheme, scheme))


def dbt_dataset(
    adapter: str, namespace: str, database: str | None, schema: str | None, identifier: str
) -> DatasetRef:
    """A dbt node's dataset as dbt-ol names it: `database.schema.identifier`, parts absent
    on the adapter (Spark has no database) left out. dbt-ol writes the manifest's spelling
    (`analytics`), a warehouse's own integration the stored one (`ANALYTICS`): the
    adapter's case rule, used when the namespace's scheme names no platform, makes them one."""
    name = ".".join(part for part in (database, schema, identifier) if part)
    return _normalise(namespace, name, adapter=adapter)


def parse_namespace_map(text: str) -> dict[str, str]:
    """`GOVERNANCE_DATASET_NAMESPACES`: `adapter=namespace` pairs, comma-separated."""
    mapping: dict[str, str] = {}
    for entry in filter(None, (e.strip() for e in text.split(","))):
        adapter, equals, namespace = (s.strip() for s in entry.partition("="))
        adapter = adapter.lower()
        if not equals or not _ADAPTER.fullmatch(adapter) or not namespace:
            raise ValueError(f"{entry!r} is not adapter=namespace (snowflake=snowflake://acct)")
        if adapter in mapping:
            raise ValueError(f"adapter {adapter!r} is given more than one namespace")
        try:
            mapping[adapter] = _namespace(namespace)
        except DatasetNameError as exc:
            raise ValueError(f"{entry!r}: the namespace {exc}") from exc
    return mapping


def _normalise(namespace: str, name: str, adapter: str | None) -> DatasetRef:
    ns = _namespace(namespace)
    platform = platform_of(ns) or (platform_of(adapter) if adapter else None)
    canonical = _checked("name", _name(platform, _nfc(name.strip())))
    if len(ns) + 1 + len(canonical) > MAX_ID_LENGTH:
        raise DatasetNameError("name", f"namespace/name must be at most {MAX_ID_LENGTH} long")
    return DatasetRef(ns, canonical)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _checked(field: Field, value: str) -> str:
    if not value:
        raise DatasetNameError(field, "must not be empty")
    if len(value) > MAX_PART:
        raise DatasetNameError(field, f"must be at most {MAX_PART} characters, not {len(value)}")
    problem = id_problem(value)
    if problem:
        raise DatasetNameError(field, problem)
    return value


def _namespace(text: str) -> str:
    ns = _checked("namespace", _nfc(text.strip()))
    head, sep, rest = ns.partition("://")
    if not sep:  # `bigquery`, `file`, `file:/path`, `arn:aws:glue:region:account`
        head, _, rest = ns.partition(":")
        rest = rest.rstrip("/")
        return _checked("namespace", _scheme(head) + (f":{rest}" if rest else ""))
    scheme = _scheme(head)
    if not _SCHEME.fullmatch(scheme):
        raise DatasetNameError("namespace", f"the scheme {head!r} is not a URI scheme")
    authority, _, path = rest.partition("/")
    host = authority if scheme == "duckdb" else _authority(scheme, authority.lower())
    path = path.rstrip("/")
    if not host and not path:
        return scheme
    return _checked("namespace", f"{scheme}://{host}" + (f"/{path}" if path else ""))


def _scheme(text: str) -> str:
    scheme = text.lower()
    if not scheme:
        raise DatasetNameError("namespace", "must start with a scheme (postgres://host)")
    return _SCHEME_ALIASES.get(scheme, scheme)


def _authority(scheme: str, authority: str) -> str:
    host, colon, port = authority.rpartition(":")
    if not colon or "]" in port:  # no port, or an IPv6 literal without one
        host, port = authority, ""
    elif port and not (port.isascii() and port.isdigit()):
        raise DatasetNameError("namespace", f"the port {port!r} is not a number")
    if host and scheme == "redshift":
        host = _redshift_host(host)
    elif host and scheme == "snowflake":
        host = _snowflake_account(host)
    if host and not port and scheme in _DEFAULT_PORTS:
        port = str(_DEFAULT_PORTS[scheme])
    return f"{host}:{int(port)}" if port else host


def _redshift_host(host: str) -> str:
    parts = host.split(".")
    if len(parts) == 6 and host.endswith(".amazonaws.com"):
        return f"{parts[0]}.{parts[2]}"
    return host


def _snowflake_account(host: str) -> str:
    parts = host.removesuffix(".snowflakecomputing.com").split(".")
    if "-" in parts[0]:
        return parts[0]  # orgname-accountname never carries a region or cloud
    return ".".join(parts + _LOCATOR_DEFAULTS[len(parts) - 1 :])


def _name(platform: str | None, name: str) -> str:
    if not name or platform in (None, "kafka"):
        return name
    if platform in _PATHS:
        return re.sub("/{2,}", "/", name).strip("/") or "/"
    if platform == "bigquery":
        parts = [_part(p) for p in name.replace("`", "").split(".")]
        if len(parts) > 3:  # a domain-scoped project: `example.com:project`
            parts = [".".join(parts[:-2]), *parts[-2:]]
        return ".".join([parts[0].lower(), *parts[1:]] if len(parts) == 3 else parts)
    if platform in _SQL_CASE:
        return ".".join(_render(platform, _fold(platform, p, q)) for p, q in _split_sql(name))
    return name


def _part(text: str) -> str:
    if not text.strip():
        raise DatasetNameError("name", "must not have an empty part between dots")
    return text


def _split_sql(name: str) -> list[tuple[str, bool]]:
    """The parts of a SQL name, each with whether it was quoted."""
    parts: list[tuple[str, bool]] = []
    i = 0
    while True:
        if name[i : i + 1] in _CLOSING:
            text, i = _read_quoted(name, i + 1, _CLOSING[name[i]])
            if i < len(name) and name[i] != ".":
                raise DatasetNameError("name", f"text follows a closing quote: {name!r}")
            parts.append((text, True))
        else:
            end = name.find(".", i)
            end = len(name) if end < 0 else end
            text, i = name[i:end], end
            parts.append((_part(text), False))
        if not text:
            raise DatasetNameError("name", "must not have an empty quoted part")
        if i >= len(name):
            return parts
        i += 1


def _read_quoted(name: str, start: int, close: str) -> tuple[str, int]:
    """The unescaped text of a quoted part (a doubled quote is one) and where it ends."""
    text, i = "", start
    while (end := name.find(close, i)) >= 0:
        if name[end + 1 : end + 2] != close:
            return text + name[i:end], end + 1
        text, i = text + name[i : end + 1], end + 2
    raise DatasetNameError("name", f"has a quote that is never closed: {name!r}")


def _fold(platform: str, part: str, quoted: bool) -> str:
    rule = _SQL_CASE[platform]
    if rule == "lower!" or (rule == "lower" and not quoted):
        return _nfc(part.lower())
    if rule == "upper" and not quoted:
        return _nfc(part.upper())
    return part


def _render(platform: str, part: str) -> str:
    if _fold(platform, part, False) == part and "." not in part and part[0] not in _CLOSING:
        return part
    quote = "`" if platform in _BACKTICKED else '"'
    return quote + part.replace(quote, quote * 2) + quote
