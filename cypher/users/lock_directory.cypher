// Serialise changes that could leave no enabled admin: every such change takes this
// one lock first, so the admin count read after it is not stale.
MERGE (d:UserDirectory {name: 'users'})
SET d.locked_at = $now
