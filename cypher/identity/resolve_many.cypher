// Of the ids, those that are aliases, with the asset each names now: [alias, id]
// pairs. One index seek per id; an id that is no alias costs nothing more.
UNWIND $ids AS id
MATCH (:AssetAlias {id: id})-[:ALIAS_OF]->(a:Asset)
RETURN collect([id, a.id]) AS aliased
