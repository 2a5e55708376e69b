// One hop of a lineage walk with a fan-out cap: for each asset id in $ids (the nodes
// first reached at the previous hop), its first $fanout neighbours by id along LINEAGE
// ($downstream: out, else in), each in the traversal's node shape with its owners and
// the edge's transformation, and how many neighbours it has in all; `standin_key` is
// the node's place among stand-ins (lineage.traverse's `key`). The service walks
// hop by hop, so the cost is each reached node's degree once: linear in the nodes
// and edges reached, one round trip per hop. An id no longer an asset yields no row.
UNWIND $ids AS id
MATCH (a:Asset {id: id})
CALL (a) {
  CALL (a) {
    WITH a WHERE $downstream
    MATCH (a)-[e:LINEAGE]->(b)
    RETURN b, e
    UNION ALL
    WITH a WHERE NOT $downstream
    MATCH (a)<-[e:LINEAGE]-(b)
    RETURN b, e
  }
  WITH b, e ORDER BY b.id
  WITH collect({node: b {.id, name: coalesce(b.name, b.id), type: coalesce(b.type, 'unknown'),
                         .platform, tags: coalesce(b.tags, []),
                         placeholder: coalesce(b.placeholder, false),
                         .domain, private: coalesce(b.domain_private, false),
                         standin_key: ((id(b) * $shuffle[0] % $shuffle[3]) * $shuffle[4] % $shuffle[3] + id(b) * $shuffle[1] + $shuffle[2]) % $shuffle[3]},
                owners: coalesce(b.owners, []), transformation: e.transformation}) AS neighbours
  RETURN neighbours[..$fanout] AS kept, size(neighbours) AS total
}
RETURN a.id AS id, kept, total
