// Whether a user signs in through the provider: signing out then ends their session
// there too.
MATCH (u:User {id: $id})
RETURN u.link_key IS NOT NULL AS linked
