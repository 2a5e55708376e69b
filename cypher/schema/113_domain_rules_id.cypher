// The one node whose stamp changes with every domain change: writers compare it with
// the rules they hold in memory (see service.store.asset_domains).
CREATE CONSTRAINT domain_rules_id IF NOT EXISTS FOR (s:DomainRules) REQUIRE s.id IS UNIQUE
