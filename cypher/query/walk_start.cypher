// Query language: the start asset itself at 0 hops, the branch of
// query.traverse_rows a traverse with min_depth 0 adds.
  RETURN s AS n, 0 AS d
