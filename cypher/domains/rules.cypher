// Every domain's rules and privacy with the stamp they go with, for the in-memory
// copy each process keeps (reloaded only when the stamp changed).
OPTIONAL MATCH (s:DomainRules {id: 'rules'})
RETURN s.stamp AS stamp,
       COLLECT { MATCH (d:Domain) RETURN [d.id, d.rules_json, d.private] } AS domains
