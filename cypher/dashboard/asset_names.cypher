// Display names of the given assets, so tables can show names instead of long ids;
// ids with no asset (deleted since) are left out.
UNWIND $ids AS id
MATCH (a:Asset {id: id})
RETURN a.id AS id, a.name AS name
