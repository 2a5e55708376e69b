// One policy by id.
MATCH (p:Policy {id: $id})
RETURN p {.*} AS policy
