// Who holds each dataset key: the asset's id, whether it is a placeholder (made by
// lineage: OpenLineage, SQL, an edge naming a dataset), and whether it may be
// merged into an asset that comes to hold its dataset (a placeholder, or an asset
// that only points at its table, a dbt source: `dataset_weak`).
UNWIND $keys AS key
MATCH (a:Asset {dataset_key: key})
RETURN key, a.id AS id, coalesce(a.placeholder, false) AS placeholder,
       coalesce(a.placeholder, false) OR coalesce(a.dataset_weak, false) AS weak
