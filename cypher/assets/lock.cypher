// An existing asset with its write lock held until commit (for read-modify-write).
MATCH (a:Asset {id: $id})
SET a._lock = true
REMOVE a._lock
RETURN a {.*} AS asset
