// The callback takes its flow exactly once: read and deleted in one statement, so a
// replayed callback finds nothing.
MATCH (f:SignInFlow {state_hash: $state_hash})
WITH f, f {.nonce, .code_verifier, .next, .expires_at} AS flow
DELETE f
RETURN flow
