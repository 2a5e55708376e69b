// A webhook's delivery log.
CREATE INDEX delivery_webhook IF NOT EXISTS FOR (d:Delivery) ON (d.webhook_id)
