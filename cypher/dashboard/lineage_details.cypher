// What the lineage page shows beside a traversal, for the assets and edges it reached,
// in one read: the dataset each asset holds (those holding none are left out), and
// the writers asserting each edge (`api`, `dbt:<project>`, `openlineage:<job>`,
// `sql:<source>`). $ids are asset ids; $edges one {source, targets} per source asset,
// so each source is a seek on the unique index on Asset.id and one expand of its
// outgoing edges, however many of them the view holds (linear, never per pair).
CALL () {
  UNWIND $ids AS id
  MATCH (a:Asset {id: id})
  WHERE a.dataset_key IS NOT NULL
  RETURN collect({id: a.id, namespace: a.dataset_namespace, name: a.dataset_name}) AS datasets
}
CALL () {
  UNWIND $edges AS out
  MATCH (s:Asset {id: out.source})-[r:LINEAGE]->(t:Asset)
  WHERE t.id IN out.targets
  RETURN collect({source: s.id, target: t.id, origins: coalesce(r.origins, [])}) AS origins
}
RETURN datasets, origins
