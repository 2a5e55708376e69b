// A page of assets matching `q`, ordered by id after the cursor's id, with the
// candidates taken from the full-text index (`$lucene`, built by
// service.domain.text_search) instead of a scan of every asset. The index
// yields a superset; the CONTAINS re-check keeps exactly the substring matches,
// so the page equals what assets.list returns for the same `q`.
// $readable (null: every domain) lists the private domains the caller may read: the
// assets of other private domains are left out, as if absent.
CALL db.index.fulltext.queryNodes('asset_text', $lucene) YIELD node AS a
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
  AND (toLower(a.id) CONTAINS $q
       OR toLower(a.name) CONTAINS $q
       OR toLower(coalesce(a.description, '')) CONTAINS $q)
RETURN a {.*} AS asset
ORDER BY a.id
LIMIT $limit
