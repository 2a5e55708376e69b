// Query language, stage one of a path query in both directions: each direction
// searched on its own (the slots `downstream` and `upstream`, patterns searched as the
// slot `kind`), and only the paths of the shorter kept; the slot `first_only` is
// query.path_first_only for ANY SHORTEST (one path), else empty. One row, `found` (at
// most $path_cap) and `truncated`. The slot `ends` keeps out ends the caller may not
// read. Spliced by the compiler, never run alone.
MATCH (a:Asset {id: $path_from})
MATCH (b:Asset {id: $path_to})
WHERE <<ends>>
CALL (a, b) {
  MATCH p = <<kind>> <<downstream>>
  RETURN p LIMIT $path_fetch
  UNION ALL
  MATCH p = <<kind>> <<upstream>>
  RETURN p LIMIT $path_fetch
}
WITH collect(p) AS found
WITH found, reduce(best = -1, x IN found |
  CASE WHEN best < 0 OR length(x) < best THEN length(x) ELSE best END) AS best
WITH [x IN found WHERE length(x) = best] AS found
<<first_only>>
WITH found[..$path_cap] AS found, size(found) > $path_cap AS truncated
