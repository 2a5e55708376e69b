// End every session of a user (disabled, deleted, or given a new password).
MATCH (s:Session {user_id: $user_id})
DELETE s
