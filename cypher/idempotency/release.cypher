// Forget a claim whose request failed, so that a retry does the work.
MATCH (r:IdempotencyRecord {scope_key: $scope_key})
DELETE r
