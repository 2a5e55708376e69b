// Delivery ids are unique.
CREATE CONSTRAINT delivery_id IF NOT EXISTS FOR (d:Delivery) REQUIRE d.id IS UNIQUE
