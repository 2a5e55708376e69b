// Record a successful sign-in.
MATCH (u:User {id: $id})
SET u.last_sign_in_at = $now
