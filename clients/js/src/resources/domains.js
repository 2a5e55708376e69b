/**
 * `/domains`: sets of assets owned by a team, chosen by `rules`, where `grants`
 * give teams a role (viewer, editor, admin). An asset is in at most one domain,
 * which its read-only `domain` field names. Reading needs the read scope (a
 * private domain is seen only by callers with a role in it), writing the admin
 * scope or the domain's own admin role. The list is not paged: `list()`
 * answers `{items}` with every domain the caller may see.
 *
 * `put(id, {owner_team, rules?, grants?, private?, display_name?, description?})`
 * creates (201) or replaces (200) the domain and re-evaluates which assets are
 * in it; an unknown team is a ValidationError. Deleting a domain takes its
 * assets out of it.
 */

import { Whole } from './whole.js';

export class Domains extends Whole {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/domains');
  }
}
