// One edge by its endpoints.
MATCH (s:Asset {id: $source})-[r:LINEAGE]->(t:Asset {id: $target})
RETURN {source: s.id, target: t.id, transformation: r.transformation, origins: r.origins,
        created_at: r.created_at, updated_at: r.updated_at} AS edge
