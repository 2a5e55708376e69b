// Every domain in id order, as domains.get answers one (domains are few: no paging).
MATCH (d:Domain)
RETURN d {.id, .display_name, .description, .private, .owner_team, .rules_json,
          .created_at, .updated_at,
          grants: COLLECT { MATCH (t:Team)-[g:GRANTED]->(d) WHERE g.owner IS NULL
                            RETURN {team: t.id, role: g.role} ORDER BY t.id },
          asset_count: COUNT { MATCH (a:Asset {domain: d.id}) }} AS domain
ORDER BY d.id
