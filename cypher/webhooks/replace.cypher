// Replace a webhook's properties with the computed ones.
MATCH (w:Webhook {id: $id})
SET w = $props
RETURN w {.*} AS webhook
