// The assets a manifest names that exist already, to tell created from updated
// from unchanged before anything is written.
UNWIND $ids AS id
MATCH (a:Asset {id: id})
RETURN a {.*} AS asset
