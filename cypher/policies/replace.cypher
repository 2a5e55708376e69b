// Replace a locked policy's properties.
MATCH (p:Policy {id: $id})
SET p = $props
RETURN p {.*} AS policy
