// The columns whose inheritance of $tag may change after a change at $seeds (a column
// tagged or untagged, a mapping into a column written or removed), with what the
// recomputation needs of each. The region: every column downstream of a seed along
// mappings whose kind does not stop the tag ($stops), and every column that inherits
// the tag through a seed now (its TAG_FLOWS subtree). One walk from a temporary root
// joined to every seed, so a column is visited once however many seeds reach it (the
// pruning breadth-first expand, VarLengthExpand(Pruning,BFS)): cost follows the
// columns and mappings reached. The root is gone when this returns.
// Per column: whether it holds $tag directly, how it inherits it now (its one incoming
// TAG_FLOWS: parent, source, distance, kind, or nulls), and every mapping into it whose
// kind does not stop the tag, with what the feeding column holds (the tag directly, or
// inherited at which distance from which source). One row holding the list (a record
// per column costs the driver more than the statement).
CREATE (w:TagWalk)
WITH w
CALL (w) {
  UNWIND $seeds AS key
  MATCH (s:Column {key: key})
  CREATE (w)-[:SEEDS]->(s)
}
CALL (w) {
  MATCH (w)-[rels:SEEDS|COLUMN_LINEAGE|TAG_FLOWS*]->(n:Column)
  WHERE all(r IN rels WHERE
    CASE type(r)
      WHEN 'SEEDS' THEN true
      WHEN 'COLUMN_LINEAGE' THEN NOT coalesce(r.kind, 'unknown') IN $stops
      ELSE r.tag = $tag
    END)
  RETURN collect(DISTINCT n) AS region
}
DETACH DELETE w
WITH region
UNWIND region AS c
OPTIONAL MATCH (p:Column)-[old:TAG_FLOWS {tag: $tag}]->(c)
CALL (c) {
  OPTIONAL MATCH (a:Column)-[r:COLUMN_LINEAGE]->(c)
  WHERE NOT coalesce(r.kind, 'unknown') IN $stops
  OPTIONAL MATCH (:Column)-[held:TAG_FLOWS {tag: $tag}]->(a)
  RETURN collect([a.key, coalesce(r.kind, 'unknown'), $tag IN coalesce(a.tags, []),
                  held.distance, held.source]) AS feeds
}
RETURN collect([c.key, c.asset, c.name, $tag IN coalesce(c.tags, []),
                p.key, old.source, old.distance, old.kind, feeds]) AS region
