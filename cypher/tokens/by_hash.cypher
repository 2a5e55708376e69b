// Authentication: the token whose secret hashes to $hash.
MATCH (t:ApiToken {hash: $hash})
RETURN t {.id, .name, .scopes, .hash, .expires_at, .revoked_at, .last_used_at} AS token
