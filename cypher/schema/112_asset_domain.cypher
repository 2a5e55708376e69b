// The assets of one domain (`GET /assets?domain=`, a domain's asset count) without
// scanning every asset.
CREATE INDEX asset_domain IF NOT EXISTS FOR (a:Asset) ON (a.domain)
