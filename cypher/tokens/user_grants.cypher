// The [domain id, role] grants a user holds through their teams: with their global role
// they cap the scopes a token made for them (`governance token create --user`) may ask.
MATCH (u:User {id: $user_id})-[:MEMBER_OF]->(:Team)-[g:GRANTED]->(d:Domain)
RETURN d.id AS domain, g.role AS role
