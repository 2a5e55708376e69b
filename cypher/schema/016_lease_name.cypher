// Named leases (the webhook dispatcher's) and cursors are unique.
CREATE CONSTRAINT lease_name IF NOT EXISTS FOR (l:Lease) REQUIRE l.name IS UNIQUE
