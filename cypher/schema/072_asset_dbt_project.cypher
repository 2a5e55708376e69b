// The nodes of one dbt project, for a change-impact check (impact.project_state),
// found without scanning every asset.
CREATE INDEX asset_dbt_project IF NOT EXISTS FOR (a:Asset) ON (a.`prop.dbt_project`)
