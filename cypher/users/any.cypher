// Whether any user exists (the first start creates `admin` when none does).
MATCH (u:User)
RETURN count(u) > 0 AS exists
LIMIT 1
