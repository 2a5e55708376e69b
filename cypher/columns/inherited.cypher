// The (:Column) nodes of one asset (found by key prefix, `id` + newline, which the
// unique index on Column.key seeks) with their direct tags and, per inherited tag, the
// path it came by: each column has at most one incoming TAG_FLOWS per tag, so the chain
// of them back to the tag's source is one path, read in as many hops as it is long.
// `path` runs from the tagged column to this one; `kinds[i]` is the kind of the
// mapping into `path[i + 1]`.
MATCH (c:Column)
WHERE c.key STARTS WITH $prefix
CALL (c) {
  OPTIONAL MATCH (:Column)-[f:TAG_FLOWS]->(c)
  OPTIONAL MATCH p = (c)<-[rels:TAG_FLOWS*]-(src:Column {key: f.source})
  WHERE all(r IN rels WHERE r.tag = f.tag)
  WITH f, p ORDER BY f.tag
  RETURN collect(CASE WHEN p IS NOT NULL THEN {
    tag: f.tag,
    path: reverse([n IN nodes(p) | [n.asset, n.name]]),
    kinds: reverse([r IN relationships(p) | r.kind])
  } END) AS inherited
}
WITH c, inherited
WHERE c.tags IS NOT NULL OR size(inherited) > 0
RETURN c.name AS name, coalesce(c.tags, []) AS tags, inherited
ORDER BY name
