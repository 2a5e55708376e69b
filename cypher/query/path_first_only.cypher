// Query language: of the shortest paths found both ways, the one an ANY SHORTEST
// query asks for (the slot `first_only` of query.path_both).
WITH found[..1] AS found
