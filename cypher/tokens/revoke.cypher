// Revoke a token; revoking twice keeps the first revocation time.
MATCH (t:ApiToken {id: $id})
SET t.revoked_at = coalesce(t.revoked_at, $now)
RETURN t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by} AS token
