// As schema.082 for column lineage histories.
CREATE INDEX column_lineage_was_first_closed IF NOT EXISTS
FOR ()-[w:COLUMN_LINEAGE_WAS]-() ON (w.first_closed)
