// Append the transaction's events, numbered in the order they were emitted. It runs
// last, just before the commit (`Tx.run_last`), so the counter's write lock is held
// for the commit only and writers no longer queue behind each other's whole change.
// Holding it until commit keeps sequence numbers in commit order: a reader that has
// seen seq N never later finds a committed event below N (followers poll by
// `seq > last` and lose nothing). A rolled-back change rolls its numbers back too.
MERGE (c:EventCounter {name: 'events'})
  ON CREATE SET c.value = 0
SET c.value = c.value + size($items)
WITH c.value - size($items) AS base
UNWIND range(0, size($items) - 1) AS i
WITH base + i + 1 AS seq, $items[i] AS event
CREATE (e:Event {id: event.id, seq: seq, type: event.type, occurred_at: event.occurred_at,
                 actor: event.actor, data: event.data, alert: event.alert,
                 severity: event.severity, owner: event.owner})
RETURN count(e) AS appended
