// One user by id (never the password hash).
MATCH (u:User {id: $id})
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
