// What an export writes beside a traversal, for the assets and edges it reached, in
// one read: each asset's dataset (null when it holds none) and declared columns (the
// JSON text the asset stores), and the column mappings along each edge. $ids are
// asset ids; $edges one {source, targets} per source asset, so each source is a seek
// on the unique index on Asset.id and one expand of its columns' mappings, linear in
// what the export holds (never per pair of assets).
CALL () {
  UNWIND $ids AS id
  MATCH (a:Asset {id: id})
  RETURN collect({id: a.id, namespace: a.dataset_namespace, name: a.dataset_name,
                  columns_json: a.columns_json}) AS assets
}
CALL () {
  UNWIND $edges AS out
  MATCH (s:Asset {id: out.source})-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
  WHERE tc.asset IN out.targets
  RETURN collect({source: s.id, target: tc.asset, source_column: sc.name,
                  target_column: tc.name, transformation: c.transformation}) AS mappings
}
RETURN assets, mappings
