// One record per (token, Idempotency-Key); the constraint makes a concurrent repeat lose.
CREATE CONSTRAINT idempotency_scope_key IF NOT EXISTS FOR (r:IdempotencyRecord) REQUIRE r.scope_key IS UNIQUE
