// Append the transaction's events, numbered in the order they were emitted. It runs
// last, just before the commit (`Tx.run_last`), so the counter's write lock is held
// for the commit only and writers no longer queue behind each other's whole change.
// Holding it until commit keeps sequence numbers in commit order: a reader that has
// seen seq N never later finds a committed event below N (followers poll by
// `seq > last` and lose nothing). A rolled-back change rolls its numbers back too.
// Each event is placed as its subjects stand at commit (one index seek per subject):
// `hides_in` the private domains of its assets, its quality rule's asset or its domain,
// with those its writer gave for subjects already deleted; `hidden_ids`/`hidden_in`
// the assets it mentions that sit in private domains, and theirs (with those its writer
// gave in `gone` for mentioned assets already deleted); `hidden_owners`/
// `hidden_owners_in` as its writer gave them (owners named only for hidden assets).
// Readers are then filtered on these with no look-up per event.
// While no domain is private and no asset is marked private (a graph without domains,
// or with public ones only) the look-ups could find nothing, so `placing` (two index
// seeks for the whole batch) skips them. It is read after the counter's lock is taken:
// a domain change appends its own event, so one made private concurrently committed
// before that read, or commits after this transaction. An asset still marked private
// by a domain since made public or deleted keeps hiding events until it is placed
// again, as before. (`schema.114_asset_domain_private` serves the second seek.)
// `replan=skip`: the plan is kept once made. Every read here is an index seek whatever
// the graph holds, so no statistics change it, while making it again (which a growing
// or cleared graph's statistics would ask for) took more than every append of a bulk
// ingest together.
CYPHER replan=skip
MERGE (c:EventCounter {name: 'events'})
  ON CREATE SET c.value = 0
SET c.value = c.value + size($items)
WITH c.value - size($items) AS base,
     EXISTS { MATCH (d:Domain) WHERE d.private }
     OR EXISTS { MATCH (a:Asset) WHERE a.domain_private = true } AS placing
UNWIND range(0, size($items) - 1) AS i
WITH base + i + 1 AS seq, $items[i] AS given, placing
WITH seq, CASE WHEN placing THEN given
               ELSE given {.*, assets: [], rule: null, domain: null, mentions: []} END AS event
WITH seq, event,
     event.hides_in
     + COLLECT { UNWIND event.assets AS id MATCH (a:Asset {id: id})
                 WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (:QualityRule {id: event.rule})-[:CHECKS]->(a:Asset)
                 WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (d:Domain {id: event.domain}) WHERE d.private RETURN d.id } AS hides,
     COLLECT { UNWIND event.mentions AS id MATCH (a:Asset {id: id})
               WHERE a.domain_private RETURN [a.id, a.domain] }
     + coalesce(event.gone, []) AS hidden
WITH seq, event, hidden,
     reduce(seen = [], d IN hides | CASE WHEN d IN seen THEN seen ELSE seen + d END) AS hides
CREATE (e:Event {id: event.id, seq: seq, type: event.type, occurred_at: event.occurred_at,
                 actor: event.actor, data: event.data, alert: event.alert,
                 severity: event.severity, owner: event.owner,
                 hides_in: CASE WHEN size(hides) > 0 THEN hides END,
                 hidden_ids: CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[0]] END,
                 hidden_in: CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[1]] END,
                 hidden_owners: CASE WHEN size(event.hidden_owners) > 0
                                THEN event.hidden_owners END,
                 hidden_owners_in: CASE WHEN size(event.hidden_owners) > 0
                                   THEN event.hidden_owners_in END})
RETURN count(e) AS appended
