// Disable a webhook (receiver gone, or failing too long) and drop what it still owed.
MATCH (w:Webhook {id: $id})
WHERE w.enabled
SET w.enabled = false, w.disabled_reason = $reason, w.updated_at = $now
WITH w
OPTIONAL MATCH (d:Delivery {webhook_id: $id, state: 'pending'})
SET d.state = 'cancelled', d.claimed_until = null
RETURN count(DISTINCT w) AS disabled
