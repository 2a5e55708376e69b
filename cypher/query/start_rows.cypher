// Query language, stage one of a start query: the start assets as rows `n, distance`
// at distance 0. The slot `start` is the compiler's predicate over `n` (ids: an index
// seek on Asset.id; else the filter). Spliced by the compiler
// (service/domain/query/reach.py), never run alone.
MATCH (n:Asset)
WHERE <<start>>
WITH n, 0 AS distance
