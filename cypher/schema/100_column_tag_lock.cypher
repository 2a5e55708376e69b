// One lock node per column tag: recomputing where a tag is inherited reads a region of
// column lineage and rewrites it, so two writers of one tag take turns (columns.lock_tag).
CREATE CONSTRAINT column_tag_lock IF NOT EXISTS FOR (l:ColumnTagLock) REQUIRE l.tag IS UNIQUE
