// Track how long a webhook has been failing: cleared by a success, started by the
// first failure. Returns the webhook as it is now.
MATCH (w:Webhook {id: $id})
SET w.failing_since = CASE WHEN $ok THEN null ELSE coalesce(w.failing_since, $now) END,
    w.last_delivery_at = $now
RETURN w {.id, .enabled, .failing_since} AS webhook
