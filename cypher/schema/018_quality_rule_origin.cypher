// A re-upload prunes the rules its project made earlier, found by origin.
CREATE INDEX quality_rule_origin IF NOT EXISTS FOR (r:QualityRule) ON (r.origin)
