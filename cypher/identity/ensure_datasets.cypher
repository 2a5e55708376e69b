// The asset holding each dataset, made when nobody holds it: a placeholder with
// the id `<namespace>/<name>` and the platform its namespace names. That id takes
// the dataset if it names an asset that holds none yet (one made by lineage before
// assets carried datasets). Returns one [key, holder id, key the holder holds,
// made now] per dataset: another key than asked means the id is taken by an asset
// holding another dataset (the caller refuses it). The held ones are found by one
// index seek each; only the rest are merged, in one batch, as
// lineage.merge_placeholders does (`_new` marks creation for an exact count). A new
// placeholder gets the domain its id places it in (`ref.domain`, `ref.private`).
UNWIND $refs AS ref
OPTIONAL MATCH (held:Asset {dataset_key: ref.key})
WITH ref, held
ORDER BY ref.key
WITH collect(CASE WHEN held IS NOT NULL THEN [ref.key, held.id, held.dataset_key, false] END)
       AS found,
     collect(CASE WHEN held IS NULL THEN ref END) AS missing
CALL (missing) {
  UNWIND missing AS ref
  MERGE (a:Asset {id: ref.id})
    ON CREATE SET a.name = ref.id, a.type = 'unknown', a.platform = ref.platform,
                  a.placeholder = true, a.version = 1, a.owners = [], a.tags = [],
                  a.created_at = $now, a.updated_at = $now, a.dataset_key = ref.key,
                  a.dataset_namespace = ref.namespace, a.dataset_name = ref.name,
                  a.domain = ref.domain, a.domain_private = ref.private, a._new = true
    ON MATCH SET a.dataset_key = coalesce(a.dataset_key, ref.key),
                 a.dataset_namespace = coalesce(a.dataset_namespace, ref.namespace),
                 a.dataset_name = coalesce(a.dataset_name, ref.name)
  WITH ref, a, coalesce(a._new, false) AS created
  REMOVE a._new
  RETURN collect([ref.key, a.id, a.dataset_key, created]) AS made
}
RETURN found + made AS rows
