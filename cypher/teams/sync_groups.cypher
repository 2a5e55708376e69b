// At a sign-in through the identity provider: the user's memberships of teams that
// list `idp_groups` follow the groups claim (joined when a group matches, left when
// none does). Teams without `idp_groups` are managed by hand and left alone.
MATCH (u:User {id: $user})
CALL (u) {
  MATCH (t:Team)
  WHERE any(g IN coalesce(t.idp_groups, []) WHERE g IN $groups)
  MERGE (u)-[:MEMBER_OF]->(t)
  RETURN count(t) AS joined
}
CALL (u) {
  MATCH (u)-[m:MEMBER_OF]->(t:Team)
  WHERE size(coalesce(t.idp_groups, [])) > 0
    AND none(g IN t.idp_groups WHERE g IN $groups)
  DELETE m
  RETURN count(m) AS left
}
RETURN joined, left
