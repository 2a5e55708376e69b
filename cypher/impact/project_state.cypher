// A dbt project as its uploads left it, for a change-impact check (writes nothing).
// Its nodes: the assets it wrote (`prop.dbt_project`) that the candidate names ($ids)
// or that an edge or a test of its latest upload still names. An upload prunes edges
// and tests but never deletes an asset, so a node the project dropped keeps its asset
// and loses both; without this test it would read as removed again on every later
// check (the price: a node with neither edges nor tests that the candidate drops is
// not seen to go). Its tests: the quality rules of origin `dbt:<project>`. One row.
CALL () {
  MATCH (a:Asset)
  WHERE a.`prop.dbt_project` = $project
    AND (a.id IN $ids
         OR EXISTS { MATCH (a)-[r:LINEAGE]-() WHERE $origin IN r.origins }
         OR EXISTS { MATCH (a)<-[:CHECKS]-(r:QualityRule) WHERE r.origin = $origin })
  RETURN collect([a.id, a.type, a.columns_json, a.`prop.materialized`,
                  a.`prop.relation_name`]) AS assets
}
CALL () {
  MATCH (r:QualityRule {origin: $origin})
  RETURN collect([r.id, r.asset_id, r.column]) AS rules
}
RETURN assets, rules
