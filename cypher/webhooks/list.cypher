// A page of webhooks ordered by id.
MATCH (w:Webhook)
WHERE w.id > $after
RETURN w {.*} AS webhook
ORDER BY w.id
LIMIT $limit
