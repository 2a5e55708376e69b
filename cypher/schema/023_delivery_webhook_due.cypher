// A webhook's due deliveries, oldest first: the dispatcher's claim looks them up per
// webhook, so a long backlog elsewhere costs it nothing.
CREATE INDEX delivery_webhook_due IF NOT EXISTS FOR (d:Delivery) ON (d.webhook_id, d.state, d.next_attempt_at)
