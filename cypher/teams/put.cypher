// Create a team or replace its fields (members stay); `created` says it is new.
MERGE (t:Team {id: $id})
  ON CREATE SET t.created_at = $now, t._new = true
SET t.display_name = $display_name, t.idp_groups = $idp_groups, t.updated_at = $now
WITH t, coalesce(t._new, false) AS created
REMOVE t._new
RETURN created
