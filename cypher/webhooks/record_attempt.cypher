// The result of one attempt: delivered, scheduled again, or given up.
MATCH (d:Delivery {id: $id})
SET d.attempts = d.attempts + 1,
    d.state = $state,
    d.next_attempt_at = $next_attempt_at,
    d.last_status = $status,
    d.last_error = $error,
    d.last_attempt_at = $now,
    d.delivered_at = CASE WHEN $state = 'delivered' THEN $now ELSE d.delivered_at END,
    d.claimed_until = null
RETURN d.attempts AS attempts
