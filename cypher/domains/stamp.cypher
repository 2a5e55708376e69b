// The current rules stamp (null before any domain): one index seek per asset write,
// so a process notices a domain change made by any other process.
OPTIONAL MATCH (s:DomainRules {id: 'rules'})
RETURN s.stamp AS stamp
