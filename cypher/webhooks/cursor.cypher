// The last event sequence number fanned out to webhooks (null before the first run).
OPTIONAL MATCH (l:Lease {name: $name})
RETURN l.cursor AS cursor
