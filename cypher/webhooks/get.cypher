// One webhook by id.
MATCH (w:Webhook {id: $id})
RETURN w {.*} AS webhook
