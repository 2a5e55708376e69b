// The owning team of each domain among $ids: all a redacted stand-in tells about the
// asset it replaces.
UNWIND $ids AS id
MATCH (d:Domain {id: id})
RETURN d.id AS id, d.owner_team AS team
