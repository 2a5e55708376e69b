// Store a new API token; only the SHA-256 of its secret is kept.
CREATE (t:ApiToken $props)
RETURN t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by, .user_id} AS token
