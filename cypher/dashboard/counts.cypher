// The overview's counts of what the viewer may read. The totals are answered from
// Neo4j's count store or one label scan; $readable (null: every domain, a global admin)
// lists the private domains the viewer may read, and what sits in the others is taken
// off: their assets (found by the `domain` index), the edges touching them, the quality
// rules checking them and the open violations of them. So the figures tell nobody how
// much is hidden, and with no private domain to hide (or for an admin) the extra work is
// one scan of the few `Domain` nodes.
CALL () {
  MATCH (d:Domain)
  WHERE $readable IS NOT NULL AND d.private AND NOT d.id IN $readable
  RETURN collect(d.id) AS hidden
}
CALL () { MATCH (a:Asset) RETURN count(a) AS all_assets }
CALL () { MATCH (:Asset)-[l:LINEAGE]->(:Asset) RETURN count(l) AS all_edges }
CALL () { MATCH (p:Policy) RETURN count(p) AS policies }
CALL () { MATCH (r:QualityRule) RETURN count(r) AS all_rules }
CALL () { MATCH (r:QualityRule) WHERE r.status IN ['failing', 'error'] RETURN count(r) AS all_failing }
CALL () { MATCH (v:Violation) RETURN count(v) AS all_violations }
CALL (hidden) {
  UNWIND hidden AS domain
  MATCH (a:Asset {domain: domain})
  WHERE a.domain_private
  RETURN count(a) AS hidden_assets,
         // An edge touching a hidden asset once: each going out, and each coming in
         // from an asset that is not itself hidden.
         sum(COUNT { (a)-[:LINEAGE]->(:Asset) }
             + COUNT { (b:Asset)-[:LINEAGE]->(a)
                       WHERE NOT (coalesce(b.domain_private, false) AND b.domain IN hidden) })
           AS hidden_edges,
         sum(COUNT { (:QualityRule)-[:CHECKS]->(a) }) AS hidden_rules,
         sum(COUNT { (r:QualityRule)-[:CHECKS]->(a) WHERE r.status IN ['failing', 'error'] })
           AS hidden_failing
}
// Violations name their asset by id only: each is looked up by the unique id (the hint
// keeps the planner from scanning every hidden asset per violation instead), and not
// at all when nothing is hidden.
CALL (hidden) {
  UNWIND CASE WHEN size(hidden) > 0 THEN [hidden] ELSE [] END AS hiding
  MATCH (v:Violation)
  MATCH (a:Asset {id: v.asset_id})
  USING INDEX a:Asset(id)
  WHERE a.domain_private AND a.domain IN hiding
  RETURN count(v) AS hidden_violations
}
RETURN all_assets - hidden_assets AS assets, all_edges - hidden_edges AS edges, policies,
       all_rules - hidden_rules AS rules, all_failing - hidden_failing AS failing,
       all_violations - hidden_violations AS violations
