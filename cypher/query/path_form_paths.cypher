// Query language, a path query's `paths` form: a page of the shortest paths found
// (`found`, `truncated`), each as its asset ids, from the cursor's offset. Appended
// by the compiler (service/domain/query/forms.py), never run alone. An asset the slot
// `shown` (a predicate over `y`) refuses is `[<element id>]` (a list, which no id is),
// for the compiler to number as a stand-in: the path is never cut, and its id never
// leaves the database.
RETURN [x IN found[$after_offset..($after_offset + $fetch)] |
        [y IN nodes(x) | CASE WHEN <<shown>> THEN y.id ELSE [elementId(y)] END]] AS paths,
       truncated
