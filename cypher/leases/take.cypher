// Take or renew a named lease; the answer says who holds it now. A lease whose
// holder stopped renewing (it died) is taken over once it expires.
MERGE (l:Lease {name: $name})
  ON CREATE SET l.holder = $holder, l.expires_at = $expires_at
WITH l
WHERE l.holder = $holder OR l.expires_at < $now
SET l.holder = $holder, l.expires_at = $expires_at
RETURN l.holder AS holder
