// Append a batch of events in the caller's transaction, numbered in list order.
// One counter update takes the counter's lock once for the batch, as `append`
// does for one event, so sequence numbers still follow commit order.
MERGE (c:EventCounter {name: 'events'})
  ON CREATE SET c.value = 0
SET c.value = c.value + size($events)
WITH c.value - size($events) AS base
UNWIND range(0, size($events) - 1) AS i
WITH base + i + 1 AS seq, $events[i] AS event
CREATE (e:Event {id: event.id, seq: seq, type: event.type, occurred_at: $now, actor: $actor,
                 data: event.data, alert: event.alert, severity: event.severity})
RETURN count(e) AS appended
