// One edge by its endpoints, with the column lineage between its two assets.
MATCH (s:Asset {id: $source})-[r:LINEAGE]->(t:Asset {id: $target})
RETURN {source: s.id, target: t.id, transformation: r.transformation, origins: r.origins,
        created_at: r.created_at, updated_at: r.updated_at,
        columns: COLLECT {
          MATCH (s)-[:HAS_COLUMN]->(sc:Column)-[c:COLUMN_LINEAGE]->(tc:Column)
          WHERE tc.asset = t.id
          WITH sc, tc, c ORDER BY sc.name, tc.name
          RETURN {source: sc.name, target: tc.name, transformation: c.transformation,
                  origins: c.origins}
        }} AS edge
