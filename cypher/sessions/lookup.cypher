// The session with this hash and its user, when both still exist.
MATCH (s:Session {hash: $hash})
MATCH (u:User {id: s.user_id})
RETURN s {.hash, .user_id, .csrf, .created_at, .last_seen_at, .expires_at} AS session,
       u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
