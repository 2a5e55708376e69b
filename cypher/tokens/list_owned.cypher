// The newest tokens with their owner's username, for the dashboard: one user's own
// (`$user_id`) or everyone's (`$user_id` null, for admins).
MATCH (t:ApiToken)
WHERE $user_id IS NULL OR t.user_id = $user_id
OPTIONAL MATCH (u:User {id: t.user_id})
RETURN t {.id, .name, .scopes, .prefix, .created_at, .expires_at, .last_used_at, .revoked_at, .created_by, .user_id} AS token,
       u.username AS owner
ORDER BY t.created_at DESC
LIMIT $limit
