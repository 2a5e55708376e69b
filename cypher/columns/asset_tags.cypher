// The direct tags the columns of the assets $ids hold now ((:Column).tags, mirrored from
// each asset's declared columns), as [asset, name, tags]. Columns are found by key
// prefix (`id` + newline), which the unique index on Column.key seeks.
UNWIND $ids AS id
MATCH (c:Column)
WHERE c.key STARTS WITH id + $separator AND c.tags IS NOT NULL
RETURN collect([id, c.name, c.tags]) AS tagged
