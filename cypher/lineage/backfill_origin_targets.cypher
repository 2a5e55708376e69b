// Index the edges and column mappings written before writers' sets were indexed (see
// lineage.index_origin_targets): for one page of up to $batch target assets after the
// id $after (id order, served by the unique index on Asset.id), each origin asserting
// an edge into the asset or a column mapping into one of its columns gets its
// ASSERTS_INTO the asset, except `$unowned` and origins starting with one of
// `$unowned_prefixes` (writers that never replace their set). Answers the page's last
// id (null when done) and how many entries it made. Idempotent: an entry that exists
// is only read, so running it again (every start-up does) writes nothing.
MATCH (t:Asset)
WHERE t.id > $after
WITH t ORDER BY t.id LIMIT $batch
WITH collect(t) AS page
CALL (page) {
  UNWIND page AS t
  CALL (t) {
    MATCH (t)<-[r:LINEAGE]-(:Asset)
    UNWIND r.origins AS origin
    RETURN origin
    UNION
    MATCH (t)-[:HAS_COLUMN]->(:Column)<-[c:COLUMN_LINEAGE]-(:Column)
    UNWIND c.origins AS origin
    RETURN origin
  }
  WITH t, origin
  WHERE origin <> $unowned AND none(p IN $unowned_prefixes WHERE origin STARTS WITH p)
    AND NOT EXISTS { MATCH (:EdgeOrigin {origin: origin})-[:ASSERTS_INTO]->(t) }
  MERGE (o:EdgeOrigin {origin: origin})
  MERGE (o)-[:ASSERTS_INTO]->(t)
  RETURN count(*) AS indexed
}
RETURN indexed, CASE WHEN size(page) = $batch THEN page[-1].id END AS last
