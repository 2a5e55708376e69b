// Store a new user; the unique login key refuses a username taken in another case.
CREATE (u:User $props)
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
