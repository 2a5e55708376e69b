"""Reading dbt artifacts: pure functions from parsed JSON to plain values (no I/O).

contents  the values read_manifest returns, and ManifestError
access    typed reads from untrusted JSON, each failure located
assets    a node -> an asset; its SQL and its lineage inputs
rules     a data test -> a quality rule, attached to the asset it tests
reader    read_manifest: the whole document, versions, project name, edges
column_lineage  column lineage of a manifest: SQL nodes, parents before children
columns         one node's compiled SQL -> column edges to its parents (sqlglot)
column_trace    the scope walk from an output column to the tables it reads
"""
