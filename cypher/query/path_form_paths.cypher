// Query language, a path query's `paths` form: a page of the shortest paths found
// (`found`, `truncated`), each as its asset ids, from the cursor's offset. Appended
// by the compiler (service/domain/query/forms.py), never run alone.
RETURN [x IN found[$after_offset..($after_offset + $fetch)] | [y IN nodes(x) | y.id]] AS paths,
       truncated
