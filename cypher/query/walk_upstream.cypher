// Query language: a upstream walk from `s` of at most {{max_depth}} hops, each asset
// once at its fewest hops (grouping by end node with min(length(p)) lets the planner
// use the pruning breadth-first expand, so cost follows the nodes reached, never the
// paths). A branch of query.traverse_rows, never run alone.
  MATCH p = (s)<-[:LINEAGE*1..{{max_depth}}]-(n)
  WHERE n <> s
  RETURN n, min(length(p)) AS d
