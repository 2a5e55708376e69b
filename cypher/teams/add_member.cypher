// Make a user a member of a team (idempotent); says which of the two exist.
OPTIONAL MATCH (t:Team {id: $team})
OPTIONAL MATCH (u:User {id: $user})
CALL (t, u) {
  WITH t, u
  WHERE t IS NOT NULL AND u IS NOT NULL
  MERGE (u)-[:MEMBER_OF]->(t)
  SET t.updated_at = $now
}
RETURN t IS NOT NULL AS team, u IS NOT NULL AS user
