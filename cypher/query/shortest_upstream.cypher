// Query language: the upstream path pattern from `a` to `b` of at most {{max_depth}}
// hops, for the slot `pattern` of query.path_one or query.path_both.
(a)<-[:LINEAGE]-{1,{{max_depth}}}(b)
