// The tags a change to the mappings $pairs ([source key, target key], written or
// removed) may move: those the source holds (directly or inherited) and those the
// target inherits now, each with the targets it may affect, as [tag, [target keys]].
UNWIND $pairs AS pair
MATCH (t:Column {key: pair[1]})
OPTIONAL MATCH (s:Column {key: pair[0]})
CALL (s, t) {
  UNWIND coalesce(s.tags, []) AS tag
  RETURN tag
  UNION
  MATCH (:Column)-[f:TAG_FLOWS]->(s)
  RETURN f.tag AS tag
  UNION
  MATCH (:Column)-[f:TAG_FLOWS]->(t)
  RETURN f.tag AS tag
}
WITH tag, collect(DISTINCT t.key) AS targets
RETURN tag, targets
ORDER BY tag
