// What happened after the evaluator's cursor: the newest event's seq, and the seq
// and times of the events that can change a policy's outcome (nulls when none).
OPTIONAL MATCH (l:Lease {name: $name})
WITH coalesce(l.cursor, 0) AS after
OPTIONAL MATCH (e:Event)
WHERE e.seq > after
WITH e, any(prefix IN $triggers WHERE e.type STARTS WITH prefix) AS trigger
RETURN max(e.seq) AS newest,
       max(CASE WHEN trigger THEN e.seq END) AS last_trigger,
       min(CASE WHEN trigger THEN e.occurred_at END) AS first_at,
       max(CASE WHEN trigger THEN e.occurred_at END) AS last_at
