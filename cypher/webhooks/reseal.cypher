// Store a webhook's secret sealed again (it was plain text, or sealed under an old
// key); only if it is still the value that was read, so a concurrent change wins.
MATCH (w:Webhook {id: $id})
WHERE w.secret = $was
SET w.secret = $sealed
RETURN count(w) AS resealed
