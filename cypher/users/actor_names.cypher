// Who an actor string names, for people reading an audit trail: `token:<id>` as its
// user's username and the token's name, `user:<id>` as the username. An id that names
// nothing any more (a deleted token or user) is simply absent from the answer, and the
// reader shows the actor string as recorded.
CALL () {
  UNWIND $token_ids AS id
  MATCH (t:ApiToken {id: id})
  OPTIONAL MATCH (u:User {id: t.user_id})
  RETURN 'token:' + id AS actor, u.username AS username, t.name AS token_name
  UNION
  UNWIND $user_ids AS id
  MATCH (u:User {id: id})
  RETURN 'user:' + id AS actor, u.username AS username, null AS token_name
}
RETURN actor, username, token_name
