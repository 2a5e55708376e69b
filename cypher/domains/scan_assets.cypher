// A batch of assets in id order after $after, with the properties domain rules read
// and the domain they hold now, for re-evaluation after a domain change.
MATCH (a:Asset)
WHERE a.id > $after
RETURN a.id AS id, a.tags AS tags, a.`prop.dbt_project` AS dbt_project,
       a.domain AS domain, coalesce(a.domain_private, false) AS private
ORDER BY a.id
LIMIT $limit
