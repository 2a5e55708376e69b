// The dispatcher finds due deliveries by state and time.
CREATE INDEX delivery_due IF NOT EXISTS FOR (d:Delivery) ON (d.state, d.next_attempt_at)
