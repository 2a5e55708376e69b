// A token by id with the role and state of its user (null for a token made by
// `governance token create`): what an open event stream asks to learn whether its
// reader may still see what only an admin may see.
MATCH (t:ApiToken {id: $id})
OPTIONAL MATCH (u:User {id: t.user_id})
RETURN t {.scopes, .expires_at, .revoked_at, .user_id} AS token,
       u {.role, .disabled} AS user
