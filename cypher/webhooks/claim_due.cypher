// Claim due deliveries for one attempt. The claim is written before sending, so
// two dispatchers (say, around a lease hand-over) never send the same attempt.
MATCH (d:Delivery)
WHERE d.state = 'pending' AND d.next_attempt_at <= $now
  AND (d.claimed_until IS NULL OR d.claimed_until < $now)
WITH d ORDER BY d.next_attempt_at LIMIT $limit
SET d.claimed_until = $claim_until, d.claimed_by = $holder
WITH d
MATCH (w:Webhook {id: d.webhook_id})
RETURN d {.id, .event_id, .event_type, .payload, .attempts, .created_at} AS delivery,
       w {.id, .url, .secret, .enabled, .failing_since} AS webhook
