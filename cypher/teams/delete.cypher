// Delete a team (its memberships and grants go with it) unless it owns a domain:
// `owned` lists those domains and nothing is deleted. `found` is false for no team.
OPTIONAL MATCH (t:Team {id: $id})
WITH t, COLLECT { MATCH (d:Domain {owner_team: $id}) RETURN d.id ORDER BY d.id } AS owned
FOREACH (_ IN CASE WHEN t IS NOT NULL AND size(owned) = 0 THEN [1] ELSE [] END |
  DETACH DELETE t)
RETURN t IS NOT NULL AS found, owned
