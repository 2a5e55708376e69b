// One node per OpenLineage job, keyed by its origin: the run whose edges stand as its set.
CREATE CONSTRAINT openlineage_job_origin IF NOT EXISTS FOR (j:OpenLineageJob) REQUIRE j.origin IS UNIQUE
