// A lease holder's progress through the event log (null before its first run).
OPTIONAL MATCH (l:Lease {name: $name})
RETURN l.cursor AS cursor
