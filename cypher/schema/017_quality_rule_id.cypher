// Quality rule ids are unique (dbt tests keep their unique_id).
CREATE CONSTRAINT quality_rule_id IF NOT EXISTS FOR (r:QualityRule) REQUIRE r.id IS UNIQUE
