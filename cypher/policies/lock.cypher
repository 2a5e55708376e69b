// An existing policy with its write lock held until commit. Evaluations lock it
// too, so two evaluations of one policy reconcile one after the other and each
// violation is announced once.
MATCH (p:Policy {id: $id})
SET p._lock = true
REMOVE p._lock
RETURN p {.*} AS policy
