// The rules among `$ids` that exist, each write-locked until commit, in id order
// (one order for every writer, so two uploads cannot deadlock on each other).
UNWIND $ids AS id
MATCH (r:QualityRule {id: id})
WITH r ORDER BY r.id
SET r._lock = true
REMOVE r._lock
RETURN r {.*} AS rule
