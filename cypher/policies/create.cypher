// Create a policy.
CREATE (p:Policy)
SET p = $props
RETURN p {.*} AS policy
