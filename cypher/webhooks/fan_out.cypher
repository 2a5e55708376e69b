// Record deliveries for a batch of events and move the cursor, in one transaction:
// a crash before commit repeats the batch, and the unique key makes that harmless.
UNWIND $deliveries AS item
MERGE (d:Delivery {key: item.key})
  ON CREATE SET d += item.props
WITH count(*) AS recorded
MATCH (l:Lease {name: $name})
SET l.cursor = $cursor
RETURN recorded
