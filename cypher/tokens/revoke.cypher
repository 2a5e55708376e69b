// Revoke a token; revoking twice keeps the first revocation time. `newly` tells
// whether this call did it (only then is there something to announce).
MATCH (t:ApiToken {id: $id})
WITH t, t.revoked_at IS NULL AS newly
SET t.revoked_at = coalesce(t.revoked_at, $now)
RETURN newly, t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by, .user_id} AS token
