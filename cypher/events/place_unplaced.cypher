// Data migration (`event_placement`): place events written before placement was kept
// as their subjects stand now, as `append_many` places a new event at its commit:
// `hides_in` the private domains of its assets, its quality rule's asset or its
// domain; `hidden_ids`/`hidden_in` the assets it mentions that sit in private domains,
// and theirs; `hidden_owners`/`hidden_owners_in` a quality alert's owners named only for
// the mentioned assets that are private now, with those assets' domains (an owner of an
// asset past the alert's first 100 listed is not known here, and stays named). $items:
// `{seq, assets, rule, domain, mentions, owners}` (service.domain.event_privacy.
// subjects_of over each event's type and payload; `owners` an alert's impact owners).
// Idempotent: an event that has a placement is left alone, and one with no private
// subject gets none.
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
               WHERE a.domain_private RETURN [a.id, a.domain] } AS hidden,
     COLLECT { UNWIND event.mentions AS id MATCH (a:Asset {id: id})
               UNWIND coalesce(a.owners, []) AS owner
               WITH owner, a WHERE owner IN event.owners
               RETURN DISTINCT [owner, CASE WHEN a.domain_private THEN a.domain END] } AS places
WITH e, hidden,
     reduce(seen = [], d IN hides | CASE WHEN d IN seen THEN seen ELSE seen + d END) AS hides,
     [p IN places WHERE p[1] IS NOT NULL
                    AND none(q IN places WHERE q[0] = p[0] AND q[1] IS NULL)] AS secret
WHERE size(hides) > 0 OR size(hidden) > 0
SET e.hides_in = CASE WHEN size(hides) > 0 THEN hides END,
    e.hidden_ids = CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[0]] END,
    e.hidden_in = CASE WHEN size(hidden) > 0 THEN [h IN hidden | h[1]] END,
    e.hidden_owners = CASE WHEN size(secret) > 0 THEN [p IN secret | p[0]] END,
    e.hidden_owners_in = CASE WHEN size(secret) > 0 THEN [p IN secret | p[1]] END
RETURN count(e) AS placed
