/**
 * `/users` (admin scope): the people who sign in to the dashboard. A user's role
 * caps what their tokens may do: viewer -> read, editor -> write, admin -> admin.
 *
 * `create({username, password, role, display_name?})`: a username taken in any
 * letter case is a ConflictError (`already_exists`), a password under 12
 * characters a ValidationError; the password never comes back. `patch` is a
 * merge patch of `role`, `display_name` (null removes it), `disabled` and
 * `password`; demoting, disabling or deleting the last enabled admin is a
 * ConflictError (`last_admin`). Deleting a user ends their sessions and tokens.
 */

import { MutableCollection } from './collection.js';

export class Users extends MutableCollection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/users');
  }
}
