"""Reading dbt artifacts: pure functions from parsed JSON to plain values (no I/O).

contents  the values read_manifest returns, and ManifestError
access    typed reads from untrusted JSON, each failure located
assets    a node -> an asset; its SQL and its lineage inputs
rules     a data test -> a quality rule, attached to the asset it tests
reader    read_manifest: the whole document, versions, project name, edges
"""
