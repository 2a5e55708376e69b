// Assets matching `q`, best first: candidates from the full-text index
// (`$lucene`, built by service.domain.text_search), re-checked as substrings so
// the set is exactly the scan's. The rank is a tier (3: id or name equals q,
// 2: the name contains it, 1: the id does, 0: only the description) plus the
// Lucene score squashed into [0, 1), so the tier always decides first. Pages
// continue after the cursor's (rank, id); `$after_id` is null on the first.
// $readable (null: every domain) lists the private domains the caller may read: the
// assets of other private domains are left out, as if absent.
CALL db.index.fulltext.queryNodes('asset_text', $lucene) YIELD node AS a, score
WHERE ($type IS NULL OR a.type = $type)
  AND ($platform IS NULL OR a.platform = $platform)
  AND ($owner IS NULL OR $owner IN a.owners)
  AND all(tag IN $tags WHERE tag IN a.tags)
  AND ($placeholder IS NULL OR a.placeholder = $placeholder)
  AND ($dataset_namespace IS NULL OR a.dataset_namespace = $dataset_namespace)
  AND ($dataset_key IS NULL OR a.dataset_key = $dataset_key)
  AND ($domain IS NULL OR a.domain = $domain)
  AND ($readable IS NULL OR a.domain_private IS NULL OR a.domain IN $readable)
WITH a, score, toLower(a.id) AS id, toLower(a.name) AS name
WHERE id CONTAINS $q OR name CONTAINS $q
   OR toLower(coalesce(a.description, '')) CONTAINS $q
WITH a, CASE
          WHEN id = $q OR name = $q THEN 3
          WHEN name CONTAINS $q THEN 2
          WHEN id CONTAINS $q THEN 1
          ELSE 0
        END + score / (1.0 + score) AS rank
WHERE $after_id IS NULL OR rank < $after_rank OR (rank = $after_rank AND a.id > $after_id)
RETURN a {.*} AS asset, rank
ORDER BY rank DESC, a.id
LIMIT $limit
