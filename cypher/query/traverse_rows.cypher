// Query language, stage one of a traverse query: per start asset `s` (the slot
// `start`, a predicate over `s`), each asset its walks reach (the slot `walks`: one
// walk fragment per direction, joined by UNION ALL, each returning `n, d`); then the
// fewest hops over all starts, bounded below by $min_depth and filtered by the slot
// `where` (a predicate over `n`). Spliced by the compiler, never run alone.
MATCH (s:Asset)
WHERE <<start>>
CALL (s) {
<<walks>>
}
WITH n, min(d) AS distance
WHERE distance >= $min_depth AND <<where>>
