// Find the asset for a create or upsert, making a bare node if there is none, and
// hold its write lock until commit. The lock is taken (ON MATCH SET) before any
// property is read, so two concurrent writers see each other's committed result:
// of two concurrent creates exactly one finds the node new or a placeholder.
// A new node has version 0; the caller fills it or rolls the transaction back.
MERGE (a:Asset {id: $id})
  ON CREATE SET a.version = 0, a.placeholder = true, a.created_at = $now
  ON MATCH SET a._lock = true
REMOVE a._lock
RETURN a {.*} AS asset
