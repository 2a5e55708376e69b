// Replace a password hash made with older Argon2 parameters by one made with today's,
// unless the password changed since it was read.
MATCH (u:User {id: $id})
WHERE u.password_hash = $old_hash
SET u.password_hash = $new_hash
