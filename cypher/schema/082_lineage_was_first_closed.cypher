// The earliest end of any closed interval on an edge's history (the open sentinel when
// none is closed): the retention housekeeping seeks the histories it may shorten.
CREATE INDEX lineage_was_first_closed IF NOT EXISTS
FOR ()-[w:LINEAGE_WAS]-() ON (w.first_closed)
