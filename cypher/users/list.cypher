// A page of users ordered by id.
MATCH (u:User)
WHERE u.id > $after
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
ORDER BY u.id
LIMIT $limit
