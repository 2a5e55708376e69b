// Teams, domains, /me's teams and domain roles, the asset domain filter, the
// domain_forbidden refusal and redacted traversal nodes against a scripted
// fetch answering the service's shapes. No network.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  ConflictError,
  DomainForbiddenError,
  NotFoundError,
  PermissionError,
  ValidationError,
  errorKind,
} from '../index.js';
import { client, json, problem, scripted } from './support.js';

const STAMPS = { created_at: '2026-11-27T12:00:00Z', updated_at: '2026-11-27T12:00:00Z' };
const TEAM = { id: 'finance', display_name: 'Finance', idp_groups: ['fin'], members: ['usr_1'], ...STAMPS };
const DOMAIN = {
  id: 'ledger',
  display_name: 'Ledger',
  description: null,
  private: true,
  owner_team: 'finance',
  rules: [{ kind: 'namespace', value: 'pg://ledger' }],
  grants: [
    { team: 'finance', role: 'admin' },
    { team: 'audit', role: 'viewer' },
  ],
  asset_count: 3,
  ...STAMPS,
};
const noContent = () => new Response(null, { status: 204 });
const wire = (calls) => calls.map((x) => `${x.init.method} ${x.url.pathname}${x.url.search}`);

describe('teams', () => {
  test('put, get, list whole, delete: each on its own path', async () => {
    const { fetch, calls } = scripted(json(201, TEAM), json(200, TEAM), json(200, { items: [TEAM] }), noContent());
    const { client: c } = client(fetch);
    const { data, status } = await c.teams.put('finance', { display_name: 'Finance', idp_groups: ['fin'] }).withResponse();
    assert.deepEqual([status, data.members], [201, ['usr_1']]);
    assert.deepEqual(JSON.parse(calls[0].body), { display_name: 'Finance', idp_groups: ['fin'] });
    assert.equal(calls[0].headers.get('idempotency-key'), null, 'a PUT needs no key');
    assert.deepEqual((await c.teams.get('finance')).idp_groups, ['fin']);
    assert.deepEqual((await c.teams.list()).items, [TEAM]);
    assert.equal(await c.teams.delete('finance'), undefined);
    assert.deepEqual(wire(calls), [
      'PUT /api/v1/teams/finance',
      'GET /api/v1/teams/finance',
      'GET /api/v1/teams',
      'DELETE /api/v1/teams/finance',
    ]);
  });

  test('put with no body sends an empty object: the service defaults apply', async () => {
    const { fetch, calls } = scripted(json(200, TEAM));
    await client(fetch).client.teams.put('finance');
    assert.deepEqual(JSON.parse(calls[0].body), {});
  });

  test('members are added and removed by user id, one encoded segment', async () => {
    const { fetch, calls } = scripted(noContent);
    const { client: c } = client(fetch);
    assert.equal(await c.teams.addMember('finance', 'usr_1/2'), undefined);
    await c.teams.removeMember('finance', 'usr_1/2');
    assert.deepEqual(
      calls.map((x) => `${x.init.method} ${x.url.href.slice(x.url.origin.length)}`),
      ['PUT /api/v1/teams/finance/members/usr_1%2F2', 'DELETE /api/v1/teams/finance/members/usr_1%2F2'],
    );
    assert.equal(calls[0].body ?? null, null);
  });

  test('errors keep their codes and are not retried', async () => {
    const { fetch, calls } = scripted(problem(409, 'team_owns_domains'), problem(404, 'not_found'));
    const { client: c } = client(fetch);
    await assert.rejects(c.teams.delete('finance'), (e) => e instanceof ConflictError && e.code === 'team_owns_domains');
    await assert.rejects(c.teams.addMember('finance', 'usr_nobody'), NotFoundError);
    assert.equal(calls.length, 2);
  });
});

describe('domains', () => {
  test('put sends the body as given; get, list whole, delete', async () => {
    const { fetch, calls } = scripted(json(201, DOMAIN), json(200, DOMAIN), json(200, { items: [DOMAIN] }), noContent());
    const { client: c } = client(fetch);
    const body = {
      owner_team: 'finance',
      private: true,
      rules: [{ kind: 'namespace', value: 'pg://ledger' }],
      grants: [{ team: 'audit', role: 'viewer' }],
    };
    assert.equal((await c.domains.put('ledger', body)).asset_count, 3);
    assert.deepEqual(JSON.parse(calls[0].body), body);
    assert.equal((await c.domains.get('ledger')).owner_team, 'finance');
    assert.deepEqual((await c.domains.list()).items.map((d) => d.id), ['ledger']);
    await c.domains.delete('ledger');
    assert.deepEqual(wire(calls), [
      'PUT /api/v1/domains/ledger',
      'GET /api/v1/domains/ledger',
      'GET /api/v1/domains',
      'DELETE /api/v1/domains/ledger',
    ]);
  });

  test('an unknown owner team is a ValidationError naming the field', async () => {
    const errors = [{ loc: ['body', 'owner_team'], msg: 'no such team', type: 'unknown_team' }];
    const { fetch } = scripted(problem(422, 'validation_error', { errors }));
    const { client: c } = client(fetch);
    await assert.rejects(c.domains.put('ledger', { owner_team: 'ghosts' }), (e) => e instanceof ValidationError && e.errors[0].loc[1] === 'owner_team');
  });
});

describe('assets, /me, refusals and redaction', () => {
  test('assets are filtered by domain and name it', async () => {
    const { fetch, calls } = scripted(json(200, { items: [{ id: 'a', domain: 'ledger' }], next_cursor: null }));
    const { client: c } = client(fetch);
    const ids = [];
    for await (const a of c.assets.iterate({ domain: 'ledger' })) ids.push([a.id, a.domain]);
    assert.deepEqual(ids, [['a', 'ledger']]);
    assert.equal(calls[0].url.searchParams.get('domain'), 'ledger');
  });

  test('/me names the teams and domain roles', async () => {
    const me = { token: { id: 'tok_1' }, user: null, teams: ['finance'], domain_roles: { ledger: 'admin' } };
    const { fetch } = scripted(json(200, me));
    assert.deepEqual((await client(fetch).client.me()).domain_roles, { ledger: 'admin' });
  });

  test('domain_forbidden is a PermissionError listing the refused assets', async () => {
    const assets = [
      { id: 'pg://ledger/t', domain: 'ledger' },
      { id: 'loose', domain: null },
    ];
    const { fetch, calls } = scripted(problem(403, 'domain_forbidden', { assets, assets_count: 120 }), problem(403, 'insufficient_scope'));
    const { client: c } = client(fetch);
    const refused = await c.lineage.create({ source: 'loose', target: 'pg://ledger/t' }).catch((e) => e);
    assert.ok(refused instanceof DomainForbiddenError && refused instanceof PermissionError);
    assert.deepEqual([refused.kind, refused.assetsCount, refused.assets], ['permission', 120, assets]);
    assert.equal(errorKind(403, 'domain_forbidden'), 'permission');
    const plain = await c.teams.put('finance', {}).catch((e) => e);
    assert.ok(plain instanceof PermissionError && !(plain instanceof DomainForbiddenError));
    assert.equal(calls.length, 2);
  });

  test('a domain_forbidden without a list reads as empty', async () => {
    const { fetch } = scripted(problem(403, 'domain_forbidden', { assets: '?' }));
    const refused = await client(fetch).client.assets.delete('a').catch((e) => e);
    assert.deepEqual([refused.assets, refused.assetsCount], [[], 0]);
  });

  test('redacted nodes are stand-ins the edges name', async () => {
    const graph = {
      root: 'a', direction: 'downstream', depth: 2, truncated: false, next_cursor: null,
      remaining: {}, hidden: {}, capped: [], redacted: 1,
      nodes: [
        { id: 'a', name: 'a', type: 'table', platform: null, tags: [], placeholder: false, distance: 0, direction: 'root' },
        { id: 'redacted:1', redacted: true, team: 'finance', distance: 1 },
      ],
      edges: [{ source: 'a', target: 'redacted:1', transformation: null }],
    };
    const { fetch } = scripted(json(200, graph));
    const answer = await client(fetch).client.lineage.downstream('a', { depth: 2 });
    const standIns = answer.nodes.filter((n) => n.redacted);
    assert.deepEqual(standIns.map((n) => [n.id, n.team, n.distance]), [['redacted:1', 'finance', 1]]);
    assert.equal(answer.redacted, standIns.length);
    assert.equal(answer.edges[0].target, standIns[0].id);
  });
});
