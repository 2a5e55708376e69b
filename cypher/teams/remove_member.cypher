// End a user's membership of a team (idempotent); says which of the two exist.
OPTIONAL MATCH (t:Team {id: $team})
OPTIONAL MATCH (u:User {id: $user})
CALL (t, u) {
  WITH t, u
  WHERE t IS NOT NULL AND u IS NOT NULL
  OPTIONAL MATCH (u)-[m:MEMBER_OF]->(t)
  DELETE m
}
RETURN t IS NOT NULL AS team, u IS NOT NULL AS user
