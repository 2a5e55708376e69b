// Every enabled webhook with its type patterns, for fan-out.
MATCH (w:Webhook)
WHERE w.enabled
RETURN w.id AS id, w.types AS types, w.created_at AS created_at
