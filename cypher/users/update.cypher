// Apply changed fields to a user (`$changes` never holds id, username or login_key).
MATCH (u:User {id: $id})
SET u += $changes
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
