// Data migration (`event_placement`): one page of the event log for the placement
// backfill, by sequence number (the unique index on `seq` serves the order): up to
// $batch events after $after, answering those that carry no placement (written before
// events were placed, `append_many`) and the last seq seen (null when done).
MATCH (e:Event)
WHERE e.seq > $after
WITH e ORDER BY e.seq LIMIT $batch
WITH collect(e) AS page
RETURN [e IN page WHERE e.hides_in IS NULL AND e.hidden_ids IS NULL
        | e {.seq, .type, .data}] AS unplaced,
       CASE WHEN size(page) = $batch THEN page[-1].seq END AS last
