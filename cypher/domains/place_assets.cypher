// Set the denormalized domain of assets (null removes it): rows of {id, domain,
// private}. `private` is true or null, so a public domain leaves no property. The
// asset's lineage trail keeps the same (assets.record_versions): an as_of walk reads
// who may see a node from the trail it walks.
UNWIND $rows AS row
MATCH (a:Asset {id: row.id})
SET a.domain = row.domain, a.domain_private = row.private
WITH a, row
CALL (a, row) {
  MATCH (t:AssetTrail {id: a.id})
  SET t.domain = row.domain, t.domain_private = row.private
}
RETURN count(a) AS placed
