// Data migration (`event_placement`): place events written before placement was kept
// as their subjects stand now, as `append_many` places a new event at its commit:
// `hides_in` the private domains of its assets, its quality rule's asset or its
// domain; `hidden_ids`/`hidden_in` the assets it mentions that sit in private domains,
// and theirs. $items: `{seq, assets, rule, domain, mentions}` (service.domain.
// event_privacy.subjects_of over each event's type and payload). Idempotent: an event
// that has a placement is left alone, and one with no private subject gets none.
UNWIND $items AS event
MATCH (e:Event {seq: event.seq})
WHERE e.hides_in IS NULL AND e.hidden_ids IS NULL
WITH e,
     COLLECT { UNWIND event.assets AS id MATCH (a:Asset {id: id})
               WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (:QualityRule {id: event.rule})-[:CHECKS]->(a:Asset)
                 WHERE a.domain_private RETURN a.domain }
     + COLLECT { MATCH (d:Domain {id: event.domain}) WHERE d.private RETURN d.id } AS hides,
     COLLECT { UNWIND event.mentions AS id MATCH (a:Asset {id: id})
               WHERE a.domain_private RETURN [a.id, a.domain] } AS hidden
WITH e, hidden,
     reduce(seen = [], d IN hides | CASE WHEN d IN seen THEN seen ELSE seen + d END) AS hides
WHERE size(hides) > 0 OR size(hidden) > 0
SET e.hides_in = CASE WHEN size(hides) > 0 THEN hides END,
    e.hidden_ids = CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[0]] END,
    e.hidden_in = CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[1]] END
RETURN count(e) AS placed
