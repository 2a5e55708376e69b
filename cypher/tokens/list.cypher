// A page of tokens ordered by id (revoked ones included, for audit).
MATCH (t:ApiToken)
WHERE t.id > $after
RETURN t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by, .user_id} AS token
ORDER BY t.id
LIMIT $limit
