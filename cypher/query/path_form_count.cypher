// Query language, a path query's `count` form: how many shortest paths were found.
// Appended by the compiler (service/domain/query/forms.py), never run alone.
RETURN size(found) AS count, truncated
