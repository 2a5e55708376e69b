// A page of assets ordered by id, after the cursor's id. Absent filters are null
// (an empty list for tags); `$after` is '' on the first page so the id range
// predicate always holds and the unique index serves both seek and order.
// With `q` this scans every asset: it serves only a `q` the full-text index
// cannot answer (see assets.list_text and service.domain.text_search).
// $readable (null: every domain) lists the private domains the caller may read: the
// assets of other private domains are left out, as if absent.
MATCH (a:Asset)
WHERE a.id > $after
  AND ($type IS NULL OR a.type = $type)
  AND ($platform IS NULL OR a.platform = $platform)
  AND ($owner IS NULL OR $owner IN a.owners)
  AND all(tag IN $tags WHERE tag IN a.tags)
  AND ($placeholder IS NULL OR a.placeholder = $placeholder)
  AND ($dataset_namespace IS NULL OR a.dataset_namespace = $dataset_namespace)
  AND ($dataset_key IS NULL OR a.dataset_key = $dataset_key)
  AND ($domain IS NULL OR a.domain = $domain)
  AND ($readable IS NULL OR a.domain_private IS NULL OR a.domain IN $readable)
  AND ($q IS NULL
       OR toLower(a.id) CONTAINS $q
       OR toLower(a.name) CONTAINS $q
       OR toLower(coalesce(a.description, '')) CONTAINS $q)
RETURN a {.*} AS asset
ORDER BY a.id
LIMIT $limit
