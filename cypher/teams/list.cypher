// Every team in id order with its members' user ids (teams are few: no paging).
MATCH (t:Team)
RETURN t {.id, .display_name, .idp_groups, .created_at, .updated_at,
          members: COLLECT { MATCH (u:User)-[:MEMBER_OF]->(t) RETURN u.id ORDER BY u.id }} AS team
ORDER BY t.id
