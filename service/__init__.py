"""Data governance service: assets, lineage, policies and quality rules on Neo4j."""

__version__ = "0.1.0"
