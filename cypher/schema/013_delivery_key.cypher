// One delivery per (webhook, event): fan-out can be repeated without doubling.
CREATE CONSTRAINT delivery_key IF NOT EXISTS FOR (d:Delivery) REQUIRE d.key IS UNIQUE
