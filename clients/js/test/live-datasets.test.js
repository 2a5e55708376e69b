// Cross-tool lineage against a running service (GOVERNANCE_URL, admin
// GOVERNANCE_TOKEN): assets holding datasets found by any spelling, edges naming
// datasets, a placeholder merged into the asset that claims its dataset, 409
// dataset_taken, SQL ingestion. Every namespace is this run's own, since other
// clients may share the database.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';

import { ConflictError, GovernanceClient, NotFoundError, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const run = randomUUID().replace(/-/g, '').slice(0, 12);
  const prefix = `js-ds-${run}`;
  const id = (name) => `${prefix}.${name}`;
  let requests = [];
  const client = new GovernanceClient({
    baseURL,
    token,
    fetch: (url, init) => {
      requests.push(`${init.method} ${new URL(url).pathname}`);
      return fetch(url, init);
    },
  });
  const table = (extra = {}) => ({ name: 'orders', type: 'table', ...extra });
  const made = new Set();

  after(async () => {
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) made.add(asset.id);
    for (const asset of made) await client.assets.delete(asset).catch(() => undefined);
  });

  describe('datasets on assets', () => {
    test('an asset holds its dataset as the platform spells it; any spelling finds it', async () => {
      const namespace = `snowflake://acme-${run}`;
      const created = await client.assets.create({
        id: id('sf.orders'),
        ...table({ platform: 'snowflake', dataset: { namespace: `SnowFlake://ACME-${run}`, name: 'analytics.public.orders' } }),
      });
      made.add(created.id);
      assert.deepEqual(created.dataset, { namespace, name: 'ANALYTICS.PUBLIC.ORDERS' });
      assert.deepEqual(created.aliases, []);

      const holder = await client.assets.list({ dataset_namespace: namespace.toUpperCase(), dataset_name: 'Analytics.Public.Orders' });
      assert.deepEqual(holder.items.map((a) => a.id), [id('sf.orders')]);
      const inNamespace = [];
      for await (const a of client.assets.iterate({ dataset_namespace: namespace, limit: 1 })) inNamespace.push(a.id);
      assert.deepEqual(inNamespace, [id('sf.orders')]);
      const nobody = await client.assets.list({ dataset_namespace: namespace, dataset_name: 'analytics.public.nothing' });
      assert.deepEqual(nobody, { items: [], next_cursor: null });

      const moved = await client.assets.put(id('sf.orders'), table({ dataset: { namespace, name: 'ANALYTICS.PUBLIC.ORDERS_V2' } }));
      assert.equal(moved.dataset.name, 'ANALYTICS.PUBLIC.ORDERS_V2');
      const cleared = await client.assets.patch(id('sf.orders'), { dataset: null }, { ifMatch: moved.version });
      assert.equal(cleared.dataset, null);
      assert.deepEqual((await client.assets.list({ dataset_namespace: namespace })).items, []);

      const err = await client.assets.list({ dataset_name: 'ORDERS' }).catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.errors[0].loc.join('.'), 'query.dataset_namespace');
    });

    test('an edge by dataset makes a placeholder; the asset claiming the dataset absorbs it', async () => {
      const namespace = `postgres://db-${run}`;
      const placeholderId = `${namespace}:5432/raw.orders`;
      const target = id('claim.revenue');
      const edge = await client.lineage
        .create({ source: { namespace, name: 'raw.orders' }, target, transformation: 'select * from raw.orders' })
        .withResponse();
      made.add(placeholderId).add(target);
      assert.equal(edge.status, 201);
      assert.equal(edge.data.source, placeholderId);
      const placeholder = await client.assets.get(placeholderId);
      assert.equal(placeholder.placeholder, true);
      assert.deepEqual(placeholder.dataset, { namespace: `${namespace}:5432`, name: 'raw.orders' });

      // Another spelling of the same dataset: scheme alias, upper case, no port.
      const claimed = await client.assets.create({
        id: id('claim.orders'),
        ...table({ platform: 'postgres', dataset: { namespace: `postgresql://DB-${run}`, name: 'RAW.ORDERS' } }),
      });
      made.add(claimed.id);
      assert.equal(claimed.placeholder, false);
      assert.deepEqual(claimed.aliases, [placeholderId]);
      assert.deepEqual(claimed.dataset, { namespace: `${namespace}:5432`, name: 'raw.orders' });

      const byOldId = await client.assets.get(placeholderId);
      assert.equal(byOldId.id, id('claim.orders'));
      const [moved] = (await client.lineage.listEdges({ target })).items;
      assert.equal(moved.source, id('claim.orders'));
      assert.deepEqual((await client.lineage.upstream(placeholderId, { depth: 1 })).root, id('claim.orders'));

      let merged = null;
      for await (const event of client.events.iterate({ types: ['asset.merged'], limit: 500 })) {
        if (event.data.from === placeholderId) merged = event;
      }
      assert.deepEqual(merged?.data, { from: placeholderId, into: id('claim.orders') });

      // A second edge by dataset now lands on the asset holding it.
      const again = await client.lineage.bulk([{ source: { namespace, name: 'raw.orders' }, target: id('claim.other') }]);
      made.add(id('claim.other'));
      assert.deepEqual([again.created, again.assets_created], [1, 1]);
      const [second] = (await client.lineage.listEdges({ target: id('claim.other') })).items;
      assert.equal(second.source, id('claim.orders'));

      const strict = await client.lineage
        .create({ source: { namespace, name: 'raw.nobody' }, target }, { strict: true })
        .catch((e) => e);
      assert.ok(strict instanceof ValidationError, String(strict));
      assert.equal(strict.code, 'unknown_assets');
      await assert.rejects(client.assets.get(`${namespace}:5432/raw.nobody`), NotFoundError);
    });

    test('a dataset another asset holds is a ConflictError dataset_taken naming the holder', async () => {
      const dataset = { namespace: `postgres://taken-${run}`, name: 'public.customers' };
      made.add(id('taken.first')).add(id('taken.second'));
      await client.assets.create({ id: id('taken.first'), ...table({ dataset }) });
      requests = [];
      const err = await client.assets
        .create({ id: id('taken.second'), ...table({ dataset: { ...dataset, name: 'PUBLIC.CUSTOMERS' } }) })
        .catch((e) => e);
      assert.ok(err instanceof ConflictError, String(err));
      assert.equal(err.status, 409);
      assert.equal(err.code, 'dataset_taken');
      assert.equal(err.problem.holder, id('taken.first'));
      assert.equal(requests.length, 1, 'a 409 is not retried');
      await assert.rejects(client.assets.get(id('taken.second')), NotFoundError);
    });
  });

  describe('SQL ingestion', () => {
    test('a query log: lineage for what parses, a failure by index for what does not', async () => {
      const namespace = `postgres://db-${run}`;
      const sources = { namespace, name: 'raw.payments' };
      const held = await client.assets.create({
        id: id('sql.payments'),
        ...table({ columns: [{ name: 'customer_id' }, { name: 'amount' }], dataset: sources }),
      });
      made.add(held.id);
      const result = await client.lineage.ingestSql({
        dialect: 'postgres',
        namespace,
        statements: [
          'insert into mart.revenue select customer_id, sum(amount) as revenue from raw.payments group by 1',
          { sql: 'select broken from', query_id: 'q-2' },
        ],
      });
      const revenue = `${namespace}:5432/mart.revenue`;
      made.add(revenue);
      assert.equal(result.origin, 'sql:api');
      assert.deepEqual(result.statements, { received: 2, with_lineage: 1, without_lineage: 0, failed: 1 });
      assert.deepEqual(result.edges, { created: 1, existing: 0 });
      assert.equal(result.assets_created, 1, 'mart.revenue is a new placeholder; raw.payments is held');
      assert.equal(result.failures.length, 1);
      assert.deepEqual([result.failures[0].index, result.failures[0].query_id], [1, 'q-2']);
      assert.equal(typeof result.failures[0].message, 'string');
      assert.ok(result.column_mappings.created >= 2, JSON.stringify(result.column_mappings));

      const [edge] = (await client.lineage.listEdges({ target: revenue })).items;
      assert.equal(edge.source, id('sql.payments'), 'the table resolves to the asset holding it');
      assert.deepEqual(edge.origins, ['sql:api']);
      const up = await client.lineage.columnUpstream(revenue, 'revenue', { depth: 1 });
      assert.deepEqual(up.nodes.map((n) => [n.asset, n.column]), [[revenue, 'revenue'], [id('sql.payments'), 'amount']]);

      const script = await client.lineage.ingestSql({
        dialect: 'postgres',
        namespace,
        default_schema: 'raw',
        source: `js-${run}`,
        sql: 'insert into mart.revenue select customer_id, sum(amount) as revenue from payments group by 1; select 1',
      });
      assert.equal(script.origin, `sql:js-${run}`);
      assert.deepEqual(script.statements, { received: 2, with_lineage: 1, without_lineage: 1, failed: 0 });
      assert.deepEqual(script.edges, { created: 0, existing: 1 });
      const [both] = (await client.lineage.listEdges({ target: revenue })).items;
      assert.deepEqual([...both.origins].sort(), ['sql:api', `sql:js-${run}`].sort());

      const pushed = await client.lineage.pushSql(
        { dialect: 'postgres', namespace, statements: ['select broken from', 'insert into mart.revenue select * from raw.payments'] },
        { chunkSize: 1 },
      );
      assert.equal(pushed.requests, 2);
      assert.deepEqual(pushed.statements, { received: 2, with_lineage: 1, without_lineage: 0, failed: 1 });
      assert.deepEqual(pushed.failures.map((f) => f.index), [0]);
      assert.deepEqual(pushed.edges, { created: 0, existing: 1 });
    });

    test('an unknown dialect, or both sql and statements, is a ValidationError', async () => {
      const dialect = await client.lineage
        .ingestSql({ dialect: 'klingon', namespace: 'postgres://db', statements: ['select 1'] })
        .catch((e) => e);
      assert.ok(dialect instanceof ValidationError, String(dialect));
      assert.deepEqual(dialect.errors[0].loc, ['body', 'dialect']);
      const both = await client.lineage
        .ingestSql({ dialect: 'postgres', namespace: 'postgres://db', sql: 'select 1', statements: ['select 1'] })
        .catch((e) => e);
      assert.ok(both instanceof ValidationError, String(both));
    });
  });
}
