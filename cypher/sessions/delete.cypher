// End one session (sign-out, or found expired).
MATCH (s:Session {hash: $hash})
DELETE s
