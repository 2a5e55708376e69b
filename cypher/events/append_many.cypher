// Append the transaction's events, numbered in the order they were emitted. It runs
// last, just before the commit (`Tx.run_last`), so the counter's write lock is held
// for the commit only and writers no longer queue behind each other's whole change.
// Holding it until commit keeps sequence numbers in commit order: a reader that has
// seen seq N never later finds a committed event below N (followers poll by
// `seq > last` and lose nothing). A rolled-back change rolls its numbers back too.
// Each event is placed as its subjects stand at commit (one index seek per subject):
// `hides_in` the private domains of its assets, its quality rule's asset or its domain,
// with those its writer gave for subjects already deleted; `hidden_ids`/`hidden_in`
// the assets it mentions that sit in private domains, and theirs. Readers are then
// filtered on these with no look-up per event.
MERGE (c:EventCounter {name: 'events'})
  ON CREATE SET c.value = 0
SET c.value = c.value + size($items)
WITH c.value - size($items) AS base
UNWIND range(0, size($items) - 1) AS i
WITH base + i + 1 AS seq, $items[i] AS event
WITH seq, event,
     event.hides_in
     + COLLECT { UNWIND event.assets AS id MATCH (a:Asset {id: id})
                 WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (:QualityRule {id: event.rule})-[:CHECKS]->(a:Asset)
                 WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (d:Domain {id: event.domain}) WHERE d.private RETURN d.id } AS hides,
     COLLECT { UNWIND event.mentions AS id MATCH (a:Asset {id: id})
               WHERE a.domain_private RETURN [a.id, a.domain] } AS hidden
WITH seq, event, hidden,
     reduce(seen = [], d IN hides | CASE WHEN d IN seen THEN seen ELSE seen + d END) AS hides
CREATE (e:Event {id: event.id, seq: seq, type: event.type, occurred_at: event.occurred_at,
                 actor: event.actor, data: event.data, alert: event.alert,
                 severity: event.severity, owner: event.owner,
                 hides_in: CASE WHEN size(hides) > 0 THEN hides END,
                 hidden_ids: CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[0]] END,
                 hidden_in: CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[1]] END})
RETURN count(e) AS appended
