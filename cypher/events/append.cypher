// Append an event in the caller's transaction. The counter's write lock is held
// until commit, so sequence numbers are handed out in commit order: a reader that
// has seen seq N never later finds a committed event below N (followers poll by
// `seq > last` and lose nothing). A rolled-back change rolls its number back too.
MERGE (c:EventCounter {name: 'events'})
  ON CREATE SET c.value = 0
SET c.value = c.value + 1
CREATE (e:Event {id: $id, seq: c.value, type: $type, occurred_at: $now, actor: $actor,
                 data: $data, alert: $alert, severity: $severity})
RETURN e.seq AS seq
