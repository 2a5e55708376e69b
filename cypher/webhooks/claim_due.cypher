// Claim due deliveries for one attempt each, fairly across webhooks: each webhook
// gives at most $room[its id] (the attempts it may start now), or $max_per_webhook
// when $room does not name it, oldest first; the claim takes them in turns (every
// webhook's first, then every webhook's second, ...), starting after webhook $after,
// until $limit. A webhook with a long backlog cannot crowd the others out.
// The claim is written before sending, so two dispatchers (say, around a lease
// hand-over) never send the same attempt: each delivery chosen is locked and then
// looked at again through a fresh match (`d`, read before the lock, may be a cached
// read), so a claim another dispatcher committed while this one waited is seen and
// that delivery left to it.
MATCH (w:Webhook)
WITH w, coalesce($room[w.id], $max_per_webhook) AS room
WHERE room > 0
CALL (w) {
  MATCH (d:Delivery)
  WHERE d.webhook_id = w.id AND d.state = 'pending' AND d.next_attempt_at <= $now
    AND (d.claimed_until IS NULL OR d.claimed_until < $now)
  // Ordered as the index is, so it reads a webhook's oldest and stops: a backlog of
  // any length costs a claim no more than its attempts under way and $max_per_webhook rows.
  WITH d ORDER BY d.webhook_id, d.state, d.next_attempt_at LIMIT $max_per_webhook
  RETURN collect(d) AS due
}
WITH w, due[..room] AS due
UNWIND range(0, size(due) - 1) AS turn
WITH w, due[turn] AS d, turn
ORDER BY turn, w.id <= $after, w.id
LIMIT $limit
SET d.claiming = true
REMOVE d.claiming
WITH w, d.id AS id, turn
MATCH (d:Delivery {id: id})
WHERE d.state = 'pending' AND (d.claimed_until IS NULL OR d.claimed_until < $now)
WITH w, d ORDER BY turn, w.id <= $after, w.id
SET d.claimed_until = $claim_until, d.claimed_by = $holder
RETURN d {.id, .event_id, .event_type, .payload, .attempts, .created_at} AS delivery,
       w {.id, .url, .secret, .enabled, .failing_since} AS webhook
