// A result is recorded once: `key` is its id, or for a dbt result the rule and the
// dbt invocation, so uploading the same run_results.json twice records nothing new.
CREATE CONSTRAINT quality_result_key IF NOT EXISTS FOR (r:QualityResult) REQUIRE r.key IS UNIQUE
