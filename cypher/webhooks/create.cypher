// Store a new webhook.
CREATE (w:Webhook $props)
RETURN w {.*} AS webhook
