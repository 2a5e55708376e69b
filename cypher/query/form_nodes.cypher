// Query language, stage two, `nodes`: a page of the reached assets (rows `n,
// distance`) ordered by (distance, id), after the cursor's (distance, id); one item
// more than $limit ($fetch) tells whether another page follows. Appended by the
// compiler (service/domain/query/forms.py), never run alone.
WITH n, distance
WHERE distance > $after_distance OR (distance = $after_distance AND n.id > $after_id)
WITH n, distance ORDER BY distance, n.id LIMIT $fetch
RETURN collect(n {.id, .name, .type, .platform, .tags, .placeholder, distance: distance}) AS nodes
