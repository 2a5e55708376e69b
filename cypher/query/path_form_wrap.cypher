// Query language, stage two of a path query's nodes, edges or graph: the assets on
// the found paths as reached rows (the slot `reached`, query.path_reached), then the
// rows form (the slot `form`), inside a subquery so `truncated` passes through; the
// slot `columns` names the form's columns. Appended by the compiler, never run alone.
CALL (found) {
<<reached>>
<<form>>
}
RETURN <<columns>>, truncated
