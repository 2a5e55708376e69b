// The newest sequence number handed out (0 before the first event).
OPTIONAL MATCH (c:EventCounter {name: 'events'})
RETURN coalesce(c.value, 0) AS seq
