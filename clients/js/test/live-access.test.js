// Teams, domains, /me, the asset `domain` field and filter, domain_forbidden and
// redacted traversal nodes against a running service: GOVERNANCE_URL and
// GOVERNANCE_TOKEN (an admin token). Other tests share the database, so every id
// is unique to this run, and what a test makes is removed afterwards.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';

import { ConflictError, DomainForbiddenError, GovernanceClient, NotFoundError, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `jsdom-${randomUUID()}`;
  const client = new GovernanceClient({ baseURL, token });
  /** Undone in reverse order: domains before their teams, then tokens and users. */
  const undo = [];
  const slug = () => `js-${randomUUID().slice(0, 12)}`;

  after(async () => {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    for (const id of mine) await client.assets.delete(id).catch(() => undefined);
  });

  async function team() {
    const id = slug();
    await client.teams.put(id, {});
    undo.push(() => client.teams.delete(id));
    return id;
  }

  async function domain(id, body) {
    const { status } = await client.domains.put(id, body).withResponse();
    assert.equal(status, 201);
    undo.push(() => client.domains.delete(id));
  }

  async function tokenOf(scope) {
    const made = await client.tokens.create({ name: slug(), scopes: [scope], expires_in_days: 1 });
    undo.push(() => client.tokens.revoke(made.id));
    return new GovernanceClient({ baseURL, token: made.token, maxRetries: 0 });
  }

  describe('teams', () => {
    test('put, replace, list, members, delete', async () => {
      const id = slug();
      const created = await client.teams.put(id, { display_name: 'Finance', idp_groups: ['fin'] }).withResponse();
      undo.push(() => client.teams.delete(id));
      assert.equal(created.status, 201);
      assert.deepEqual([created.data.idp_groups, created.data.members], [['fin'], []]);
      const replaced = await client.teams.put(id, { display_name: 'Money' }).withResponse();
      assert.deepEqual([replaced.status, replaced.data.idp_groups], [200, []]);
      assert.ok((await client.teams.list()).items.some((t) => t.id === id));

      const user = await client.users.create({ username: slug(), password: 'a long enough password', role: 'viewer' });
      undo.push(() => client.users.delete(user.id));
      await client.teams.addMember(id, user.id);
      await client.teams.addMember(id, user.id);
      assert.deepEqual((await client.teams.get(id)).members, [user.id]);
      await client.teams.removeMember(id, user.id);
      assert.deepEqual((await client.teams.get(id)).members, []);
      await assert.rejects(client.teams.addMember(id, 'usr_nobody'), NotFoundError);

      await client.teams.delete(id);
      await assert.rejects(client.teams.get(id), NotFoundError);
      const bad = await client.teams.put('Not A Slug', {}).catch((e) => e);
      assert.ok(bad instanceof ValidationError, String(bad));
      assert.deepEqual(bad.errors.map((e) => e.loc.join('.')), ['path.team_id']);
    });
  });

  describe('domains', () => {
    test('a domain holds the assets its rules pick', async () => {
      const owner = await team();
      const audit = await team();
      const inside = `${prefix}.inside`;
      const outside = `other-${prefix}`;
      await client.assets.create({ id: inside, name: 'in', type: 'table' });
      await client.assets.create({ id: outside, name: 'out', type: 'table' });
      undo.push(() => client.assets.delete(outside));
      const id = slug();
      await domain(id, {
        owner_team: owner,
        display_name: 'Ledger',
        rules: [{ kind: 'namespace', value: prefix }],
        grants: [{ team: audit, role: 'viewer' }],
      });

      const read = await client.domains.get(id);
      assert.deepEqual([read.owner_team, read.private, read.asset_count], [owner, false, 1]);
      assert.ok(read.grants.some((g) => g.team === audit && g.role === 'viewer'), JSON.stringify(read.grants));
      assert.ok((await client.domains.list()).items.some((d) => d.id === id));
      assert.equal((await client.assets.get(inside)).domain, id);
      assert.equal((await client.assets.get(outside)).domain ?? null, null);
      const listed = [];
      for await (const a of client.assets.iterate({ domain: id })) listed.push(a.id);
      assert.deepEqual(listed, [inside]);

      const owns = await client.teams.delete(owner).catch((e) => e);
      assert.ok(owns instanceof ConflictError && owns.code === 'team_owns_domains', String(owns));
      await assert.rejects(client.domains.put(`${id}-x`, { owner_team: `${owner}-nobody` }), ValidationError);

      await client.domains.delete(id);
      assert.equal((await client.assets.get(inside)).domain ?? null, null);
      await assert.rejects(client.domains.get(id), NotFoundError);
    });
  });

  describe('access', () => {
    test('/me names the role and scopes', async () => {
      const me = await client.me();
      assert.equal(me.role, 'admin');
      assert.ok(me.scopes.includes('admin'));
      assert.ok(Array.isArray(me.teams));
    });

    test('a write outside the caller\'s domains is refused, listing the assets', async () => {
      const owner = await team();
      const guarded = `${prefix}.guarded`;
      await client.assets.create({ id: guarded, name: 'g', type: 'table' });
      const id = slug();
      await domain(id, { owner_team: owner, rules: [{ kind: 'asset', value: guarded }] });
      const writer = await tokenOf('write');
      const refused = await writer.assets.patch(guarded, { description: 'not mine' }).catch((e) => e);
      assert.ok(refused instanceof DomainForbiddenError, String(refused));
      assert.deepEqual([refused.assets, refused.assetsCount], [[{ id: guarded, domain: id }], 1]);
      assert.equal((await client.assets.get(guarded)).description, null, 'nothing was written');
    });

    test('a private domain\'s nodes are redacted in a traversal; the path goes on', async () => {
      const owner = await team();
      const [root, hidden, beyond] = ['root', 'hidden', 'beyond'].map((n) => `${prefix}.${n}`);
      await client.lineage.bulk([
        { source: root, target: hidden },
        { source: hidden, target: beyond },
      ]);
      await domain(slug(), { owner_team: owner, private: true, rules: [{ kind: 'asset', value: hidden }] });
      const reader = await tokenOf('read');
      const graph = await reader.lineage.downstream(root, { depth: 3 });
      const standIns = graph.nodes.filter((n) => n.redacted);
      assert.deepEqual(standIns.map((n) => [n.team, n.distance]), [[owner, 1]]);
      assert.equal(graph.redacted, 1);
      const ids = graph.nodes.map((n) => n.id);
      assert.ok(!ids.includes(hidden) && ids.includes(beyond), JSON.stringify(ids));
      const standIn = standIns[0].id;
      assert.deepEqual(new Set(graph.edges.map((e) => `${e.source}>${e.target}`)), new Set([`${root}>${standIn}`, `${standIn}>${beyond}`]));
      await assert.rejects(reader.assets.get(hidden), NotFoundError);
      const full = await client.lineage.downstream(root, { depth: 3 });
      assert.ok(full.nodes.some((n) => n.id === hidden));
      assert.equal(full.redacted ?? 0, 0);
    });
  });
}
