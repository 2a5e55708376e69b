// A token by id with the role and state of its user (null for a token made by
// `governance token create`), and the user's [domain id, role] grants and team ids as
// authentication reads them: what an open event stream asks to learn whether its
// reader may still see what only an admin may see, and which private domains' events.
MATCH (t:ApiToken {id: $id})
OPTIONAL MATCH (u:User {id: t.user_id})
RETURN t {.id, .name, .scopes, .expires_at, .revoked_at, .user_id} AS token,
       u {.role, .disabled} AS user,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain) RETURN [d.id, g.role] } AS grants,
       COLLECT { MATCH (u)-[:MEMBER_OF]->(team:Team) RETURN team.id ORDER BY team.id } AS teams
