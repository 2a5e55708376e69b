// Replace every property of a locked asset with the computed ones.
MATCH (a:Asset {id: $id})
SET a = $props
RETURN a {.*} AS asset
