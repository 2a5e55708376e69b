// Single sign-on: the user linked to this provider identity (issuer, a newline, and
// the ID token's subject), if any. Never found by email: see service/domain/access/sso.py.
MATCH (u:User {link_key: $link_key})
RETURN u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user
