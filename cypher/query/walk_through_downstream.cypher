// Query language: a downstream walk from `s` whose intermediate assets pass the slot
// `through` (a predicate over `hop_b`), inlined into a quantified path pattern of at
// most {{hops}} hops that the planner folds into the same pruning expand; one more hop
// then reaches the returned assets, which need not pass it. A branch of
// query.traverse_rows, never run alone.
  MATCH p = (s) ((hop_a)-[:LINEAGE]->(hop_b) WHERE <<through>>){0,{{hops}}} (m)
  WITH m, min(length(p)) AS dm
  MATCH (m)-[:LINEAGE]->(n)
  WHERE n <> s
  RETURN n, min(dm + 1) AS d
