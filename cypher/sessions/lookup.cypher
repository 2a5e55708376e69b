// The session with this hash and its user, when both still exist, with the user's
// [domain id, role] grants through their teams and their team ids: what the dashboard
// holds each asset's domain against, in the same round trip.
MATCH (s:Session {hash: $hash})
MATCH (u:User {id: s.user_id})
RETURN s {.hash, .user_id, .csrf, .created_at, .last_seen_at, .expires_at} AS session,
       u {.id, .username, .display_name, .role, .disabled, .created_at, .updated_at, .last_sign_in_at} AS user,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain) RETURN [d.id, g.role] } AS grants,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(team:Team) RETURN team.id ORDER BY team.id } AS teams
