// One node per OpenLineage run, keyed by its runId.
CREATE CONSTRAINT openlineage_run_id IF NOT EXISTS FOR (r:OpenLineageRun) REQUIRE r.run_id IS UNIQUE
