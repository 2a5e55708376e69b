// Sign-in: the user with this login key (lower-cased username) and its password hash.
MATCH (u:User {login_key: $login_key})
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user,
       u.password_hash AS password_hash
