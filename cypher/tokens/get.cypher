// One token's metadata by id.
MATCH (t:ApiToken {id: $id})
RETURN t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by, .user_id} AS token
