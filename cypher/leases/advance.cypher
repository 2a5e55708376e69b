// Record how far through the event log the lease's holder has acted.
MATCH (l:Lease {name: $name, holder: $holder})
SET l.cursor = $cursor
RETURN l.cursor AS cursor
