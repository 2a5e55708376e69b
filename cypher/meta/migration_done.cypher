// Whether the data migration $name has run to its end in this database.
OPTIONAL MATCH (m:Migration {name: $name})
RETURN m IS NOT NULL AS done
