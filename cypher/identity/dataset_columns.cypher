// The stored columns of the assets holding these datasets (for `SELECT *` and for
// columns a statement leaves unqualified): [key, columns_json] for holders with columns.
UNWIND $keys AS key
MATCH (a:Asset {dataset_key: key})
WHERE a.columns_json IS NOT NULL
RETURN collect([key, a.columns_json]) AS columns
