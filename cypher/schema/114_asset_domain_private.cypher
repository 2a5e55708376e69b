// The assets marked private, found without scanning every asset: appending events asks
// whether there is any (`events.append_many`), and skips placing them when none is.
// Only assets that carry the mark have an entry, so writes without private domains
// add nothing to it.
CREATE INDEX asset_domain_private IF NOT EXISTS FOR (a:Asset) ON (a.domain_private)
