// Retention for asset versions: per asset, the versions made at or before $cutoff
// except the newest of them, which stays as the baseline (the asset as it stood at
// $cutoff), so every instant from $cutoff on still answers. At most $batch assets
// per run (run until it answers fewer).
MATCH (v:AssetVersion)
WHERE v.at <= $cutoff
WITH v.asset_id AS id, v
ORDER BY v.version DESC
WITH id, collect(v)[1..] AS older
WHERE size(older) > 0
WITH id, older
LIMIT $batch
UNWIND older AS v
DETACH DELETE v
RETURN count(DISTINCT id) AS pruned
