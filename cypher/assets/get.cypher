// One asset by id.
MATCH (a:Asset {id: $id})
RETURN a {.*} AS asset
