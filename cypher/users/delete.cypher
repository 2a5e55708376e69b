// Delete a user; their tokens stay (for audit) but no longer authenticate.
MATCH (u:User {id: $id})
DELETE u
