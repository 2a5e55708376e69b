// Which of the ids name no asset (for ?strict=true).
UNWIND $ids AS id
OPTIONAL MATCH (a:Asset {id: id})
WITH id, a
WHERE a IS NULL
RETURN collect(id) AS missing
