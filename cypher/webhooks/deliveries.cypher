// A page of a webhook's deliveries ordered by id (oldest first).
MATCH (d:Delivery {webhook_id: $webhook_id})
WHERE d.id > $after
RETURN d {.id, .event_id, .event_type, .state, .attempts, .last_status, .last_error,
          .next_attempt_at, .last_attempt_at, .delivered_at, .created_at} AS delivery
ORDER BY d.id
LIMIT $limit
