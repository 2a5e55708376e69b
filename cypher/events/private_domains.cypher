// The private domains holding any of the assets $ids, as they stand in the writing
// transaction: where an ingestion's summary event hides (its `hides_in`), since the
// summary speaks of every asset the request wrote without naming them as subjects.
// One index seek per id; the caller skips it while no domain is private.
UNWIND $ids AS id
MATCH (a:Asset {id: id})
WHERE a.domain_private
RETURN collect(DISTINCT a.domain) AS domains
