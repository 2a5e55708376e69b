// Webhook ids are unique.
CREATE CONSTRAINT webhook_id IF NOT EXISTS FOR (w:Webhook) REQUIRE w.id IS UNIQUE
