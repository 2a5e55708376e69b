// Compile-only check of index.d.ts (never run): `npm run test:types` (part of
// `npm test`) type-checks it with tsc, importing the package by its own name.
import GovernanceClientDefault, {
  APIError,
  ConflictError,
  DomainForbiddenError,
  GovernanceClient,
  NotFoundError,
  ValidationError,
  type Asset,
  type AssetMergedData,
  type Dataset,
  type EdgeInput,
  type SqlIngest,
  type SqlResult,
  type PushSqlResult,
  type BulkResult,
  type Edge,
  type LineageGraph,
  type Page,
  type PushBulkResult,
  type TokenCreated,
  type ManifestSummary,
  type GovernanceEvent,
  type Policy,
  type Violation,
  type EvaluationSummary,
  type QualityRule,
  type QualityResult,
  type DbtResultsSummary,
  type QueryBody,
  type QueryNode,
  type QueryResult,
  type CypherResult,
  type ColumnGraph,
  type Delivery,
  type Me,
  type Domain,
  type Items,
  type Team,
  type OpenLineageResult,
  type OpenLineageRunEvent,
  type PushOpenLineageResult,
  type User,
  type Webhook,
  type WebhookCreated,
  type WebhookTestResult,
  type AssetVersion,
  type ImpactReport,
  type LineageDiff,
  type LineageExport,
  AuthenticationError,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RECONNECT_MS,
  DEFAULT_TIMEOUT_MS,
  verifyWebhook,
  WebhookVerificationError,
} from '@governance/client';

export async function usage(): Promise<void> {
  const client = new GovernanceClient({ baseURL: 'http://localhost:8080', token: 'dgs_x', maxRetries: 2 });
  const same: GovernanceClient = new GovernanceClientDefault();
  void same;

  const asset: Asset = await client.assets.create({ id: 'a', name: 'A', type: 'table', tags: ['pii'] });
  const { data, status, requestId } = await client.assets.put('a', { name: 'A', type: 'view' }, { ifMatch: asset.version }).withResponse();
  const replaced: Asset = data;
  const created: boolean = status === 201;
  const rid: string | null = requestId;
  void [replaced, created, rid];
  await client.assets.patch('a', { description: null, properties: { rows: 1 } }, { ifMatch: '"2"' });
  const nothing: void = await client.assets.delete('a', { ifMatch: 3 });
  void nothing;

  const page: Page<Asset> = await client.assets.list({ tag: ['pii', 'gold'], placeholder: false, limit: 10 });
  void page.next_cursor;
  for await (const a of client.assets.iterate({ q: 'orders' })) {
    const id: string = a.id;
    void id;
  }

  const edge: Edge = await client.lineage.create({ source: 'a', target: 'b' }, { strict: true });
  void edge.origins;
  const bulk: BulkResult = await client.lineage.bulk([{ source: 'a', target: 'b', transformation: 'sql' }]);
  void bulk.assets_created;
  async function* edges() {
    yield { source: 'a', target: 'b' };
  }
  const pushed: PushBulkResult = await client.lineage.pushBulk(edges(), { chunkSize: 500, onChunk: (r, i) => void [r.created, i] });
  void pushed.requests;
  const graph: LineageGraph = await client.lineage.upstream('b', { depth: 3 });
  void graph.nodes.map((n) => (n.redacted ? [n.distance, n.team] : [n.distance, n.direction]));
  const standIns: number | undefined = graph.redacted;
  void standIns;
  await client.lineage.get('b', { direction: 'both', limit: 100 });
  for await (const e of client.lineage.iterateEdges({ origin: 'api' })) void e.transformation;
  await client.lineage.deleteEdge('a', 'b');

  const token: TokenCreated = await client.tokens.create({ name: 'ci', scopes: ['read'], expires_in_days: 30 });
  await client.tokens.revoke(token.id);

  try {
    await client.assets.get('missing', { signal: AbortSignal.timeout(1000) });
  } catch (err) {
    if (err instanceof NotFoundError) {
      const code: string | null = err.code;
      void code;
    } else if (err instanceof ValidationError) {
      void err.errors.map((e) => e.loc.join('.'));
    } else if (err instanceof ConflictError || err instanceof APIError) {
      void [err.status, err.requestId, err.problem?.detail, err.kind];
    }
  }
  const summary: ManifestSummary = await client.lineage.uploadManifest('manifest.json', { project: 'p', prune: false });
  void [summary.edges.created, summary.assets.updated, summary.quality_rules.removed];
  const events = await client.events.list({ after: 0, types: ['asset.*'], limit: 10 });
  void events.next_cursor;
  for await (const e of client.events.iterate({ types: ['lineage.manifest.ingested'] })) void [e.seq, e.data.project];
  try {
    const evt: GovernanceEvent = verifyWebhook('whsec_x', new Headers(), Buffer.from('{}'), { now: 0 });
    void evt.type;
    verifyWebhook('whsec_x', { 'webhook-id': 'x' }, '{}', { toleranceSeconds: 60 });
  } catch (err) {
    if (err instanceof WebhookVerificationError) void err.message;
  }
  const info = await client.info();
  void info.api_version;

  const policy: Policy = await client.policies.create({
    name: 'pii propagates',
    kind: 'tag_propagation',
    severity: 'critical',
    selector: { type: ['table', 'view'], tags: ['pii'] },
    params: { tag: 'pii', max_depth: 10 },
  });
  await client.policies.create({ name: 'no pii on dashboards', kind: 'restricted_flow', params: { to: { type: 'dashboard' } } });
  await client.policies.replace(policy.id, { name: 'n', kind: 'require_owner' }, { ifMatch: policy.version });
  await client.policies.patch(policy.id, { description: null, enabled: false }, { ifMatch: '"2"' });
  for await (const p of client.policies.iterate({ kind: 'require_owner', enabled: true })) void p.evaluated_at;
  const evaluation: EvaluationSummary = await client.policies.evaluate();
  void evaluation.policies.map((p) => p.opened + p.resolved);
  for await (const v of client.policies.iterateViolations(policy.id, { limit: 100 })) {
    const violation: Violation = v;
    void [violation.asset_id, violation.path?.join(' -> ')];
  }
  const violations = await client.policies.listViolations(policy.id);
  void [violations.evaluated_at, violations.next_cursor];
  await client.policies.delete(policy.id);

  const rule: QualityRule = await client.quality.create({ asset_id: 'a', name: 'n', type: 'not_null', column: 'id' });
  const result: QualityResult = await client.quality.recordResult(rule.id, { status: 'fail', observed_value: 3, run_at: new Date() });
  await client.quality.recordResult(rule.id, 'pass');
  void result.recorded_at;
  for await (const r of client.quality.iterateResults(rule.id)) void r.status;
  for await (const r of client.quality.iterate({ status: 'failing', asset_id: 'a' })) void r.last_result;
  await client.quality.replace(rule.id, { asset_id: 'a', name: 'n', type: 'unique' }, { ifMatch: 1 });
  await client.quality.patch(rule.id, { column: null });
  const dbt: DbtResultsSummary = await client.quality.uploadDbtResults('target/run_results.json');
  void [dbt.failed, dbt.unmatched];
  await client.quality.uploadDbtResults({ metadata: {}, results: [] });

  const body: QueryBody = { start: { ids: ['a'] }, traverse: { direction: 'downstream', max_depth: 10 }, limit: 500 };
  const answer: QueryResult = await client.query.run({ ...body, return: 'count' });
  void answer.count;
  for await (const page of client.query.pages(body)) void page.next_cursor;
  for await (const node of client.query.iterate({ start: { where: { type: 'table' } }, return: 'nodes' })) {
    const n: QueryNode = node;
    void n.distance;
  }
  for await (const path of client.query.iterate({ path: { from: 'a', to: 'b' } })) void path.join('/');
  for await (const edge of client.query.iterate({ start: { ids: ['a'] }, return: 'edges' })) void edge.source;
  const rows: CypherResult = await client.query.cypher('MATCH (a:Asset) RETURN a.id', { parameters: {}, limit: 10 });
  void rows.rows[0]?.[0];

  // Users, /me and the probes
  const user: User = await client.users.create({ username: 'ana', password: 'correct horse battery', role: 'viewer' });
  await client.users.patch(user.id, { role: 'editor', display_name: null, disabled: false });
  for await (const u of client.users.iterate({ limit: 100 })) void [u.username, u.last_sign_in_at];
  await client.users.delete(user.id);
  const me: Me = await client.me();
  const owner: string | null = me.token.user_id;
  void [owner, me.user?.role, me.teams?.[0], me.domain_roles?.['finance']];

  // Teams and domains
  const team: Team = await client.teams.put('finance', { display_name: 'Finance', idp_groups: ['fin'] });
  await client.teams.addMember(team.id, user.id);
  await client.teams.removeMember(team.id, user.id);
  const teams: Items<Team> = await client.teams.list();
  void teams.items.map((t) => t.members);
  const domain: Domain = await client.domains.put('ledger', {
    owner_team: 'finance',
    private: true,
    rules: [{ kind: 'namespace', value: 'pg://ledger' }],
    grants: [{ team: 'audit', role: 'viewer' }],
  });
  void [domain.asset_count, (await client.domains.get('ledger')).grants, (await client.domains.list()).items];
  for await (const a of client.assets.iterate({ domain: 'ledger' })) void a.domain;
  await client.domains.delete('ledger');
  await client.teams.delete('finance');
  try {
    await client.assets.delete('pg://ledger/t');
  } catch (error) {
    if (error instanceof DomainForbiddenError) void error.assets.map((a) => [a.id, a.domain, error.assetsCount]);
  }
  const health = await client.healthz();
  await client.readyz({ maxRetries: 0 });
  const metrics: string = await client.metrics();
  void [health.status, metrics];

  // Webhooks
  const hook: WebhookCreated = await client.webhooks.create({ url: 'https://example.com/hook', types: ['asset.*'] });
  const secret: string = hook.secret;
  const updated: Webhook = await client.webhooks.patch(hook.id, { enabled: false, description: null });
  void updated.failing_since;
  const tried: WebhookTestResult = await client.webhooks.test(hook.id, { requestId: 'trace-1' });
  void [tried.delivered, tried.status];
  for await (const d of client.webhooks.iterateDeliveries(hook.id)) {
    const delivery: Delivery = d;
    void [delivery.state, delivery.attempts];
  }
  const page2: Page<Webhook> = await client.webhooks.list();
  void page2;
  const verified = client.webhooks.verify(secret, new Headers(), '{}');
  void verified.seq;
  await client.webhooks.delete(hook.id);

  // The live stream
  const controller = new AbortController();
  for await (const event of client.events.stream(
    { after: 41, types: ['asset.*'], onConnect: ({ reconnect, lastEventId }) => void [reconnect, lastEventId] },
    { signal: controller.signal, maxRetries: Infinity },
  )) {
    const seq: number = event.seq;
    void seq;
    break;
  }

  // Column lineage and OpenLineage
  await client.lineage.create({ source: 'a', target: 'b', columns: [{ source: 'id', target: 'order_id', transformation: null }] });
  const columns: ColumnGraph = await client.lineage.columnUpstream('b', 'order_id', { depth: 2 });
  void columns.nodes.map((n) => `${n.asset}.${n.column}@${n.distance}`);
  await client.lineage.columnDownstream('a', 'id');
  const run: OpenLineageRunEvent = {
    eventType: 'COMPLETE',
    eventTime: '2025-01-01T00:00:00Z',
    producer: 'https://example.com/producer',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: '01936c3e-0000-7000-8000-000000000000' },
    job: { namespace: 'etl', name: 'orders', facets: { sql: { query: 'select 1' } } },
    inputs: [{ namespace: 'pg', name: 'raw.orders' }],
    outputs: [{ namespace: 'pg', name: 'orders', facets: { columnLineage: { fields: { id: { inputFields: [{ namespace: 'pg', name: 'raw.orders', field: 'id' }] } } } } }],
  };
  const one: OpenLineageResult = await client.lineage.openLineage(run);
  await client.lineage.openLineage([run, run]);
  const pushedRuns: PushOpenLineageResult = await client.lineage.pushOpenLineage([run], { chunkSize: 1000, onChunk: (r) => void r.edges.created });
  void [one.column_mappings.created, pushedRuns.requests];

  // Cross-tool lineage: datasets on assets and as edge ends, SQL, a manifest's namespace
  const orders: Dataset = { namespace: 'snowflake://acme-prod', name: 'ANALYTICS.PUBLIC.ORDERS' };
  const held: Asset = await client.assets.create({ id: 'orders', name: 'orders', type: 'table', dataset: orders });
  const stored: Dataset | null = held.dataset;
  const former: string[] = held.aliases;
  void [stored?.namespace, former];
  await client.assets.put('orders', { name: 'orders', type: 'table', dataset: null });
  await client.assets.patch('orders', { dataset: null });
  const holder: Page<Asset> = await client.assets.list({ dataset_namespace: 'snowflake://acme-prod', dataset_name: 'analytics.public.orders' });
  void holder.items[0]?.aliases;
  const byDataset: EdgeInput = { source: orders, target: 'dashboards.revenue' };
  await client.lineage.create(byDataset, { strict: true });
  await client.lineage.bulk([byDataset, { source: 'a', target: { namespace: 'kafka://broker:9092', name: 'orders' } }]);
  await client.lineage.pushBulk([byDataset], { chunkSize: 2 });
  // @ts-expect-error a dataset needs both parts
  await client.lineage.create({ source: { namespace: 'pg' }, target: 'b' });
  const script: SqlResult = await client.lineage.ingestSql({
    dialect: 'snowflake',
    namespace: 'snowflake://acme-prod',
    default_database: 'ANALYTICS',
    default_schema: 'PUBLIC',
    source: 'nightly',
    sql: 'insert into mart.revenue select * from raw.orders; select 1',
  });
  void [script.origin, script.statements.with_lineage, script.edges.created, script.column_mappings.existing];
  const log: SqlIngest = {
    dialect: 'postgres',
    namespace: 'postgres://db',
    statements: ['select 1', { sql: 'insert into a select * from b', query_id: 'q1', user: 'etl', timestamp: null }],
  };
  const logged: SqlResult = await client.lineage.ingestSql(log, { idempotencyKey: 'k' });
  void logged.failures.map((f) => [f.index, f.message, f.query_id]);
  async function* history() {
    yield 'select 1';
    yield { sql: 'insert into a select * from b', query_id: 'q2' };
  }
  const pushedSql: PushSqlResult = await client.lineage.pushSql(
    { dialect: 'snowflake', namespace: 'snowflake://acme-prod', statements: history() },
    { chunkSize: 5000, onChunk: (r, i) => void [r.failures.length, i] },
  );
  void [pushedSql.requests, pushedSql.statements.failed];
  // @ts-expect-error sql or statements, not both
  await client.lineage.ingestSql({ dialect: 'postgres', namespace: 'postgres://db', sql: 'select 1', statements: ['select 1'] });
  const namespaced: ManifestSummary = await client.lineage.uploadManifest('manifest.json', { project: 'p', namespace: 'snowflake://acme-prod' });
  const merged: number = namespaced.assets.merged;
  void merged;
  for await (const e of client.events.iterate({ types: ['asset.merged'] })) {
    const data = e.data as AssetMergedData;
    void [data.from, data.into];
  }
  try {
    await client.assets.create({ id: 'other', name: 'o', type: 'table', dataset: orders });
  } catch (err) {
    if (err instanceof ConflictError && err.code === 'dataset_taken') {
      const who: string | undefined = err.problem?.holder;
      void who;
    }
  }

  const then: LineageGraph = await client.lineage.upstream('a', { as_of: new Date('2026-11-03T09:00:00Z'), depth: 2 });
  await client.lineage.columnDownstream('a', 'x', { as_of: '2026-11-03T09:00:00Z' });
  const diff: LineageDiff = await client.lineage.diff('a', { from: new Date(0), to: '2026-11-20T00:00:00Z', direction: 'upstream', limit: 10 });
  void [then.nodes, diff.added.edges, diff.removed.nodes, diff.changed.edges.map((e) => e.previous_transformation), diff.truncated];
  const file: LineageExport = await client.lineage.export('a', { format: 'dot', direction: 'upstream', limit: 50, as_of: new Date(0) });
  const name: string | null = file.filename;
  void [file.text.length, file.truncated, name];
  // @ts-expect-error: an export needs its format
  await client.lineage.export('a', { depth: 2 });
  for await (const v of client.assets.iterateHistory('a', { limit: 10 })) {
    const version: AssetVersion = v;
    void [version.at, version.actor, version.deleted, version.changes.map((c) => [c.field, c.column, c.change, c.from, c.to])];
  }
  const report: ImpactReport = await client.lineage.checkManifest('manifest.json', { project: 'p', namespace: 'snowflake://acme', depth: 3 });
  void report.impacted.map((hit) => [hit.asset, hit.owners, hit.via.join(' -> '), hit.distance, report.project, report.depth]);
  const replaced2: BulkResult = await client.lineage.bulk([{ source: 'a', target: 'b' }], { origin: 'airflow:sync', replace: true });
  void replaced2.retired?.edges_removed;

  for await (const page of client.lineage.lineagePages('a', { direction: 'downstream', limit: 500, type: ['dashboard', 'report'], tag: 'gold', fanout: 20 })) {
    const graph: LineageGraph = page;
    const next: string | null = graph.next_cursor;
    void [next, graph.remaining.downstream, graph.hidden.upstream, graph.capped.map((c) => [c.id, c.direction, c.shown, c.total]), graph.edges.map((e) => [e.source, e.target, e.transformation])];
  }
  const filtered: LineageGraph = await client.lineage.upstream('a', { owner: ['bi@example.com'], platform: 'looker', cursor: 'abc' });
  void filtered.truncated;
  // @ts-expect-error column traversals neither page nor filter
  await client.lineage.columnUpstream('a', 'x', { type: 'table' });

  const defaults: ['http://localhost:8080', 60000, 2, 2000] = [DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RETRIES, DEFAULT_RECONNECT_MS];
  void defaults;
  try {
    await client.me();
  } catch (err) {
    if (err instanceof AuthenticationError) void err.code;
  }
}
