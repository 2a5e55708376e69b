// The overview's counts; each is answered from Neo4j's count store or one label scan.
CALL { MATCH (a:Asset) RETURN count(a) AS assets }
CALL { MATCH (:Asset)-[l:LINEAGE]->(:Asset) RETURN count(l) AS edges }
CALL { MATCH (p:Policy) RETURN count(p) AS policies }
CALL { MATCH (r:QualityRule) RETURN count(r) AS rules }
CALL { MATCH (r:QualityRule) WHERE r.status IN ['failing', 'error'] RETURN count(r) AS failing }
CALL { MATCH (v:Violation) RETURN count(v) AS violations }
RETURN assets, edges, policies, rules, failing, violations
