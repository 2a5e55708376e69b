// The one counter node that hands out event sequence numbers.
CREATE CONSTRAINT event_counter_name IF NOT EXISTS FOR (c:EventCounter) REQUIRE c.name IS UNIQUE
