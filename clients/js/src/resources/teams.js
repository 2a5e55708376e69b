/**
 * `/teams`: named groups of users, given roles in domains. Reading needs the
 * read scope, writing the admin scope. The list is not paged: `list()` answers
 * `{items}` with every team.
 *
 * `put(id, {display_name?, idp_groups?})` creates (201) or replaces (200) the
 * team; `.withResponse()` tells which. With `idp_groups`, membership follows
 * those identity-provider groups at each single sign-on. Deleting a team that
 * owns a domain is a ConflictError (`team_owns_domains`); adding an unknown
 * user is a NotFoundError.
 */

import { encodeSegment } from '../url.js';
import { Whole } from './whole.js';

export class Teams extends Whole {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/teams');
  }

  /** `PUT /teams/{id}/members/{userId}` (204): makes the user a member; nothing changes if they are one. */
  addMember(id, userId, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: this._memberPath(id, userId) });
  }

  /** `DELETE /teams/{id}/members/{userId}` (204): takes the user out of the team. */
  removeMember(id, userId, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: this._memberPath(id, userId) });
  }

  /** @private */
  _memberPath(id, userId) {
    return `${this._path(id)}/members/${encodeSegment(userId)}`;
  }
}
