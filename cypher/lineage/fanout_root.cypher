// The root of a hop-by-hop lineage walk (`fanout`): the asset with id $id, or the one
// a merge made $id a former id of, in the traversal's node shape with its owners (the
// `owner` filter reads them), after the same `authorised` re-check of the caller's
// token as lineage.traverse (null $token_hash: already looked up for this request).
// An unauthorised caller finds no root (`authorised` null: its roles changed, as in
// lineage.traverse). Always one row.
CALL () {
  OPTIONAL MATCH (t:ApiToken {hash: $token_hash})
  OPTIONAL MATCH (u:User {id: t.user_id})
  WITH t, u, $token_hash IS NULL OR (
    t IS NOT NULL AND t.revoked_at IS NULL AND size(t.scopes) > 0
    AND (t.expires_at IS NULL OR t.expires_at > $now)
    AND (t.user_id IS NULL OR (u IS NOT NULL AND NOT coalesce(u.disabled, false)))
  ) AS valid
  RETURN CASE
    WHEN NOT coalesce(valid, false) THEN false
    WHEN $access IS NULL OR $access = [coalesce(u.role, '')] + COLLECT {
      MATCH (u)-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain)
      RETURN d.id + ' ' + g.role AS grant ORDER BY grant
    } THEN true
  END AS authorised
}
OPTIONAL MATCH (direct:Asset {id: $id}) WHERE authorised
OPTIONAL MATCH (:AssetAlias {id: $id})-[:ALIAS_OF]->(aliased:Asset) WHERE authorised AND direct IS NULL
WITH authorised, coalesce(direct, aliased) AS root
RETURN authorised,
       root {.id, name: coalesce(root.name, root.id), type: coalesce(root.type, 'unknown'),
             .platform, tags: coalesce(root.tags, []), placeholder: coalesce(root.placeholder, false),
             distance: 0, direction: 'root'} AS root,
       coalesce(root.owners, []) AS owners
