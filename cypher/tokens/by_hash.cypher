// Authentication: the token whose secret hashes to $hash, and the role and state of
// the user who made it (null for a token made by `governance token create`), so a
// token never does more than its user's current role allows. `grants` are the user's
// [domain id, role] pairs through their teams and `teams` their team ids, in the same
// round trip, so per-domain rules cost no query of their own.
MATCH (t:ApiToken {hash: $hash})
OPTIONAL MATCH (u:User {id: t.user_id})
RETURN t {.id, .name, .scopes, .hash, .expires_at, .revoked_at, .last_used_at, .user_id} AS token,
       u {.role, .disabled} AS user,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain) RETURN [d.id, g.role] } AS grants,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(team:Team) RETURN team.id ORDER BY team.id } AS teams
