// Query language, stage two, `count`: how many assets stage one reached (rows `n,
// distance`), without materialising them. Appended by the compiler
// (service/domain/query/forms.py), never run alone.
RETURN count(n) AS count
