// Take or renew a named lease; the answer says who holds it now. A lease whose
// holder stopped renewing (it died) is taken over once it expires.
// The lease is locked before it is read: under read committed, two processes that
// both read an expired lease (its holder renewing late, another taking over) would
// both pass the test and both believe they hold it. Locked first, the one that waited
// reads what the other committed. The test reads a fresh match (`held`), not `l`,
// whose properties the planner may have cached before the lock.
MERGE (l:Lease {name: $name})
  ON CREATE SET l.holder = $holder, l.expires_at = $expires_at
SET l.taking = true
REMOVE l.taking
WITH DISTINCT l.name AS name
MATCH (held:Lease {name: name})
WHERE held.holder = $holder OR held.expires_at < $now
SET held.holder = $holder, held.expires_at = $expires_at
RETURN held.holder AS holder
