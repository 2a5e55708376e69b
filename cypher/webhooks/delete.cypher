// Delete a webhook and the deliveries still waiting for it (the sent ones stay as log).
MATCH (w:Webhook {id: $id})
OPTIONAL MATCH (d:Delivery {webhook_id: $id, state: 'pending'})
DETACH DELETE d
WITH DISTINCT w
DELETE w
RETURN count(*) AS deleted
