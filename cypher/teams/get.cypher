// One team with its members' user ids.
MATCH (t:Team {id: $id})
RETURN t {.id, .display_name, .idp_groups, .created_at, .updated_at,
          members: COLLECT { MATCH (u:User)-[:MEMBER_OF]->(t) RETURN u.id ORDER BY u.id }} AS team
