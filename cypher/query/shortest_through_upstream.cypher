// Query language: the upstream path pattern from `a` to `b` whose intermediate
// assets pass the slot `through` (a predicate over `hop_b`), at most {{hops}} hops
// of them and one more to `b`; shortest-path search takes the inlined predicate too.
// For query.path_one or query.path_both.
(a) ((hop_a)<-[:LINEAGE]-(hop_b) WHERE <<through>>){0,{{hops}}} (m)<-[:LINEAGE]-(b)
