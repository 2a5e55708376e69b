// Query language, stage one of a path query in one direction: one row, `found` (the
// shortest paths from $path_from to $path_to, the slot `kind` ANY or ALL SHORTEST over
// the slot `pattern`, at most $path_cap) and `truncated`. $path_fetch is one more
// than the cap, to tell that paths were left out. The slot `ends` keeps out ends the
// caller may not read (`true`, or a predicate over `a` and `b`). Spliced by the
// compiler, never run alone.
MATCH (a:Asset {id: $path_from})
MATCH (b:Asset {id: $path_to})
WHERE <<ends>>
MATCH p = <<kind>> <<pattern>>
WITH p LIMIT $path_fetch
WITH collect(p) AS found
WITH found[..$path_cap] AS found, size(found) > $path_cap AS truncated
