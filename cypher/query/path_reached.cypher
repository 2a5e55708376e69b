// Query language: the assets on a path query's found paths as rows `n, distance`, at
// their fewest hops from `from`, so the nodes, edges and graph forms can follow; the
// slot `shown` leaves out those the caller may not read (a predicate over `n`).
// Wrapped with a form by the compiler (service/domain/query/forms.py), never run alone.
UNWIND found AS x
UNWIND range(0, length(x)) AS i
WITH nodes(x)[i] AS n, i AS distance
WITH n, min(distance) AS distance
WHERE <<shown>>
