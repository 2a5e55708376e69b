// Lock the two assets of a merge, in id order so two merges never deadlock.
MATCH (a:Asset)
WHERE a.id IN [$from, $into]
WITH a ORDER BY a.id
SET a._lock = true
REMOVE a._lock
RETURN count(a) AS locked
