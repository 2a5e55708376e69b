// Event sequence numbers are unique; the index serves replay (`seq > $after`) in order.
CREATE CONSTRAINT event_seq IF NOT EXISTS FOR (e:Event) REQUIRE e.seq IS UNIQUE
