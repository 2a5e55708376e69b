// Against a running service (GOVERNANCE_URL, admin GOVERNANCE_TOKEN): every
// operation of its OpenAPI document is served by the member operations.json
// names, which sends the documented method and path; then the probes, /me and users.
// (The README's quick start is run as written by scripts/check-readme.mjs.)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';

import { ConflictError, GovernanceClient, NotFoundError, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

const operations = JSON.parse(readFileSync(new URL('../operations.json', import.meta.url), 'utf8'));

/** Arguments that reach the request for members whose first arguments are not path ids. */
const ARGUMENTS = {
  'lineage.deleteEdge': ['a', 'b'],
  'lineage.uploadManifest': [Buffer.from('{}'), { project: 'p' }],
  'lineage.checkManifest': [Buffer.from('{}'), { project: 'p' }],
  'lineage.diff': ['a', { from: '2026-01-01T00:00:00Z' }],
  'lineage.export': ['a', { format: 'dot' }],
  'quality.uploadDbtResults': [{ results: [] }],
  'query.cypher': ['RETURN 1'],
};

/** Calls `client.<member>` with placeholder arguments, for what it sends. */
async function invoke(client, member, pathParams) {
  const parts = member.split('.');
  const name = parts.pop();
  const holder = parts.reduce((object, part) => object[part], client);
  const args = ARGUMENTS[member] ?? [...pathParams.map((p) => `${p}-1`), {}];
  const result = holder[name](...args);
  if (result && typeof result[Symbol.asyncIterator] === 'function') {
    const iterator = result[Symbol.asyncIterator]();
    await iterator.next().catch(() => undefined);
    await iterator.return?.().catch(() => undefined);
  } else {
    await Promise.resolve(result).catch(() => undefined);
  }
}

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const client = new GovernanceClient({ baseURL, token });
  const users = [];

  after(async () => {
    for (const id of users) await client.users.delete(id).catch(() => undefined);
  });

  describe('coverage', () => {
    test('operations.json names exactly the operations of the OpenAPI document', async () => {
      const doc = await client.openapi();
      const documented = [];
      for (const item of Object.values(doc.paths)) {
        for (const operation of Object.values(item)) {
          if (operation?.operationId) documented.push(operation.operationId);
        }
      }
      assert.deepEqual(Object.keys(operations).sort(), documented.sort());
    });

    test('each member sends the method and path its operation documents', async () => {
      const doc = await client.openapi();
      const sent = [];
      const recorder = new GovernanceClient({
        baseURL,
        token: 'dgs_unused',
        maxRetries: 0,
        fetch: async (url, init) => {
          sent.push({ method: init.method, path: new URL(url).pathname });
          return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
        },
      });
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!operation?.operationId) continue;
          const member = operations[operation.operationId];
          const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          sent.length = 0;
          await invoke(recorder, member, params);
          const expected = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`);
          assert.equal(sent.length, 1, `${operation.operationId}: client.${member} sent ${sent.length} requests`);
          assert.equal(sent[0].method, method.toUpperCase(), `${operation.operationId}: method`);
          assert.match(sent[0].path, expected, `${operation.operationId}: client.${member} sent ${sent[0].path}`);
        }
      }
    });
  });

  describe('service', () => {
    test('healthz, readyz and metrics need no token', async () => {
      const anonymous = new GovernanceClient({ baseURL: `${baseURL}/api/v1`, token: null });
      assert.deepEqual(await anonymous.healthz(), { status: 'ok' });
      assert.deepEqual(await anonymous.readyz(), { status: 'ready' });
      const text = await anonymous.metrics();
      assert.match(text, /^# (HELP|TYPE) /m);
    });

    test('me tells the calling token and its user; tokens carry user_id', async () => {
      const { token: mine, user } = await client.me();
      assert.match(mine.id, /^tok_/);
      assert.ok(mine.scopes.includes('admin'));
      assert.equal(user?.id ?? null, mine.user_id);
      const made = await client.tokens.create({ name: `js-${randomUUID()}`, scopes: ['read'], expires_in_days: 1 });
      try {
        assert.equal(made.user_id, mine.user_id, 'a token belongs to the user of the token that made it');
        const reader = new GovernanceClient({ baseURL, token: made.token });
        const seen = await reader.me();
        assert.deepEqual([seen.token.id, seen.token.scopes], [made.id, ['read']]);
        assert.equal(seen.token.token, undefined);
      } finally {
        await client.tokens.revoke(made.id);
      }
    });
  });

  describe('users', () => {
    test('create, get, list, patch and delete; the password never comes back', async () => {
      const username = `js-${randomUUID().slice(0, 12)}`;
      const created = await client.users
        .create({ username, password: 'a long enough password', role: 'viewer', display_name: 'JS Test' })
        .withResponse();
      const user = created.data;
      users.push(user.id);
      assert.equal(created.status, 201);
      assert.match(user.id, /^usr_/);
      assert.deepEqual([user.username, user.role, user.disabled, user.display_name], [username, 'viewer', false, 'JS Test']);
      assert.equal(user.password, undefined);
      assert.deepEqual(await client.users.get(user.id), user);
      let listed = false;
      for await (const u of client.users.iterate({ limit: 100 })) listed ||= u.id === user.id;
      assert.ok(listed);

      const patched = await client.users.patch(user.id, { role: 'editor', display_name: null });
      assert.deepEqual([patched.role, patched.display_name], ['editor', null]);
      const disabled = await client.users.patch(user.id, { disabled: true, password: 'another long password' });
      assert.equal(disabled.disabled, true);

      assert.equal(await client.users.delete(user.id), undefined);
      await assert.rejects(client.users.get(user.id), (e) => e instanceof NotFoundError);
    });

    test('a username taken in another letter case is a conflict; a short password invalid', async () => {
      const username = `js-${randomUUID().slice(0, 12)}`;
      const user = await client.users.create({ username, password: 'a long enough password', role: 'viewer' });
      users.push(user.id);
      const taken = await client.users
        .create({ username: username.toUpperCase(), password: 'a long enough password', role: 'viewer' })
        .catch((e) => e);
      assert.ok(taken instanceof ConflictError, String(taken));
      assert.equal(taken.code, 'already_exists');
      const short = await client.users.create({ username: `${username}-2`, password: 'short', role: 'viewer' }).catch((e) => e);
      assert.ok(short instanceof ValidationError, String(short));
      assert.ok(short.errors.some((e) => e.loc.join('.') === 'body.password'), JSON.stringify(short.errors));
    });
  });
}
