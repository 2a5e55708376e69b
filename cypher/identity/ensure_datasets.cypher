// The asset holding each dataset, made when nobody holds it: a placeholder with
// the id `<namespace>/<name>` and the platform its namespace names. That id takes
// the dataset if it names an asset that holds none yet (one made by lineage before
// assets carried datasets). Returns,
// per key, the holder's id and the key that holder holds (another key means the id
// is taken by an asset holding another dataset: the caller refuses it). `_new`
// marks creation for an exact count, as lineage.merge_placeholders does.
UNWIND $refs AS ref
OPTIONAL MATCH (held:Asset {dataset_key: ref.key})
OPTIONAL CALL (ref, held) {
  WITH ref, held WHERE held IS NULL
  MERGE (a:Asset {id: ref.id})
    ON CREATE SET a.name = ref.id, a.type = 'unknown', a.platform = ref.platform,
                  a.placeholder = true, a.version = 1,
                  a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now,
                  a._new = true
  WITH a, ref
  SET a.dataset_key = coalesce(a.dataset_key, ref.key),
      a.dataset_namespace = coalesce(a.dataset_namespace, ref.namespace),
      a.dataset_name = coalesce(a.dataset_name, ref.name)
  WITH a, coalesce(a._new, false) AS created
  REMOVE a._new
  RETURN a AS made, created
}
WITH ref, coalesce(held, made) AS a, coalesce(created, false) AS created
RETURN ref.key AS key, a.id AS id, a.dataset_key AS holds, created
