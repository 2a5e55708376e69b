// Keep the answer of a finished request so that a repeat gets it again.
MATCH (r:IdempotencyRecord {scope_key: $scope_key})
SET r.state = 'done', r.status = $status, r.body = $body, r.headers_json = $headers_json
