// The root of a traversal, in the shape of a graph node.
MATCH (a:Asset {id: $id})
RETURN a {.id, .name, .type, .platform, .tags, .placeholder} AS node
