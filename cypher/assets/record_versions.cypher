// Record a version of each asset a transaction wrote, just before its commit: a
// snapshot of the live node's properties (columns as `columns_json`) when they
// differ from the asset's newest version, so repeating a write records nothing.
// An asset gone (deleted, or merged away: `merged_into` names the asset its id
// became an alias of) gets one last version with `deleted` true, a copy of the one
// before. `$items` holds {id, at, actor}; an id queued twice is recorded once, as
// the last item says. The two are compared as whole maps with the bookkeeping keys
// (the node's id, ETag version and timestamps; the version's own keys) set alike on
// both sides, so only what the asset holds counts. The newest version is found by an
// index seek on the asset's id (retention keeps its versions few). A bare placeholder
// (an asset only named by lineage, no columns) with no versions (or a deletion last:
// named again after one) records nothing, so a bulk of new edges writes no versions;
// given columns (a schema facet) or made real, it gets its first (or next) version;
// deleted or merged away unversioned, it leaves none. traverse_as_of answers such an
// asset's past from the live node and its trail.
// A versioned asset that took part in lineage also brings its trail node (see
// history.record_edges) up to date: the fields a lineage answer shows of a node (name,
// type, platform, tags, placeholder, domain, domain_private) and since when they have
// been so (`shown_since`: the updated_at of the write that last changed one, or the
// instant the asset went, when it shows as a placeholder: name and type absent), so
// lineage.traverse_as_of shows a node unchanged since its instant from the trail it
// walked, without seeking the live asset per node. A write changing none of them
// writes no trail; they are compared as [is null, value] pairs, which compare without
// nulls.
UNWIND $items AS item
WITH item.id AS id, collect(item) AS queued
WITH id, queued[size(queued) - 1] AS item
OPTIONAL MATCH (a:Asset {id: id})
CALL (id) {
  OPTIONAL MATCH (v:AssetVersion {asset_id: id})
  WITH v
  ORDER BY v.version DESC
  LIMIT 1
  RETURN v AS newest
}
WITH id, item, a, newest
WHERE CASE
  WHEN a IS NULL THEN newest IS NOT NULL AND NOT newest.deleted
  WHEN coalesce(a.placeholder, false) AND a.columns_json IS NULL
       AND (newest IS NULL OR newest.deleted) THEN false
  WHEN newest IS NULL OR newest.deleted THEN true
  ELSE a {.*, id: 0, version: 0, created_at: 0, updated_at: 0, asset_id: 0, at: 0, actor: 0,
          deleted: 0, merged_into: 0}
       <> newest {.*, id: 0, version: 0, created_at: 0, updated_at: 0, asset_id: 0, at: 0,
                  actor: 0, deleted: 0, merged_into: 0}
END
CALL (item, a) {
  MATCH (t:AssetTrail {id: item.id})
  WITH t
  WHERE CASE WHEN a IS NULL THEN t.name IS NOT NULL OR t.shown_since IS NULL
             ELSE t.shown_since IS NULL
                  OR [x IN [t.name, t.type, t.platform, t.tags, t.placeholder, t.domain,
                            t.domain_private] | [x IS NULL, coalesce(x, false)]]
                     <> [x IN [a.name, a.type, a.platform, a.tags, a.placeholder, a.domain,
                               a.domain_private] | [x IS NULL, coalesce(x, false)]] END
  SET t += CASE WHEN a IS NULL
                THEN {name: null, type: null, platform: null, tags: null, placeholder: true,
                      domain: null, domain_private: null, shown_since: item.at}
                ELSE a {.name, .type, .platform, .tags, .placeholder, .domain, .domain_private,
                        shown_since: a.updated_at} END
}
OPTIONAL MATCH (:AssetAlias {id: id})-[:ALIAS_OF]->(into:Asset)
WITH id, item, a, newest, into, coalesce(properties(a), properties(newest)) AS base
// One SET of the whole map: the (asset_id, version) constraint never sees the copy's.
CREATE (v:AssetVersion)
SET v = base {.*,
              asset_id: id,
              version: coalesce(newest.version, 0) + 1,
              at: item.at,
              actor: item.actor,
              deleted: a IS NULL,
              merged_into: CASE WHEN a IS NULL THEN into.id END,
              id: null, created_at: null, updated_at: null}
RETURN count(v) AS recorded
