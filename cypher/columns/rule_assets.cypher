// The assets whose column classification a new rule for $tag may change, read before
// the rule is written so a caller refused in one of their domains writes nothing: the
// assets holding $tag on a column, those downstream of such a column along mappings
// whose kind the new rule ($stops) does not stop (they may come to inherit it), and
// those inheriting it now (they may lose it). Distinct ends only, so the walk prunes
// (each column visited once); rules change rarely.
CALL () {
  MATCH (s:Column)
  WHERE $tag IN coalesce(s.tags, [])
  MATCH (s)-[rels:COLUMN_LINEAGE*0..]->(n:Column)
  WHERE all(r IN rels WHERE NOT coalesce(r.kind, 'unknown') IN $stops)
  RETURN DISTINCT n.asset AS asset
  UNION
  MATCH (:Column)-[:TAG_FLOWS {tag: $tag}]->(c:Column)
  RETURN DISTINCT c.asset AS asset
}
RETURN collect(DISTINCT asset) AS assets
