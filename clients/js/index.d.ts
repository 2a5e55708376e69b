// Type declarations for @governance/client (hand-written; the code is plain ESM).

// ---------------------------------------------------------------------------
// Construction

export interface ClientOptions {
  /**
   * The service address, with or without the trailing `/api/v1`
   * (`http://localhost:8080` and `http://localhost:8080/api/v1` are the same).
   * Default: the `GOVERNANCE_URL` environment variable, else `http://localhost:8080`.
   */
  baseURL?: string;
  /**
   * An API token (`dgs_...`), sent as `Authorization: Bearer <token>`.
   * Default: the `GOVERNANCE_TOKEN` environment variable. `null` sends none
   * (enough for `info()` and `openapi()`).
   */
  token?: string | null;
  /**
   * Milliseconds one attempt may take, answer body included. Default 60000
   * (600000 for manifest and dbt results uploads).
   */
  timeoutMs?: number;
  /** Retries after the first attempt (connection errors, timeouts, 408, 429, 5xx only). Default 2. */
  maxRetries?: number;
  /** A fetch implementation (a proxy agent, a test double). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** Waits between retries; replaceable for tests. Default: a timer that the request's signal can abort. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Per call: the last argument of every method. */
export interface RequestOptions {
  /** Cancels the request and any wait between retries; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /**
   * An `Idempotency-Key` of your own (1-255 visible ASCII characters). Every
   * retried POST gets a random one anyway; a POST or PATCH is retried only with one.
   */
  idempotencyKey?: string;
  /** Extra headers; a `null` value removes a default one. */
  headers?: Record<string, string | null | undefined>;
  /** Sent as `X-Request-ID`: the service logs it and answers it back (else it makes one). */
  requestId?: string;
}

/** Optimistic concurrency: a version (`3` is sent as `If-Match: "3"`), an ETag or `*`. */
export interface ConditionalOptions extends RequestOptions {
  ifMatch?: number | string;
}

export interface StrictOptions extends RequestOptions {
  /**
   * Refuse unknown endpoint assets and datasets no asset holds (422
   * `unknown_assets`) instead of creating placeholders.
   */
  strict?: boolean;
}

export interface BulkOptions extends StrictOptions {
  /** The writer asserting the edges, e.g. `airflow:warehouse_sync`. Default `api`. */
  origin?: string;
  /**
   * The request is `origin`'s whole edge set: the edges it asserted before and
   * not now are retired (`retired`); an edge another origin asserts stays.
   * Needs `origin`.
   */
  replace?: boolean;
}

export interface PushBulkOptions extends Omit<BulkOptions, 'idempotencyKey'> {
  /** Edges per request, at most the server's limit. Default 10000. */
  chunkSize?: number;
  /** Called after each request with its answer and its index (0-based). */
  onChunk?: (result: BulkResult, index: number) => void | Promise<void>;
}

/** Low-level request for `client.request()`; `path` is relative to the API root. */
export interface RequestSpec extends ConditionalOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | Lowercase<string>;
  path: string;
  query?: QueryParams;
  body?: unknown;
  /** Default `application/json` when there is a body. */
  contentType?: string;
  /**
   * A POST that only reads (as `query.run` and `query.cypher` are): retried like a
   * GET, and given no automatic Idempotency-Key.
   */
  readOnly?: boolean;
  /**
   * A POST that is idempotent by nature (what it writes is merged, as bulk edges
   * and OpenLineage events are): retried like a GET, and given no automatic
   * Idempotency-Key.
   */
  idempotent?: boolean;
  /**
   * `false` for a POST whose answer the service never keeps for replay (it holds
   * a secret): no automatic Idempotency-Key, and never retried.
   */
  replayable?: boolean;
  /** `path` is relative to the service root (`/healthz`) instead of the API root. */
  root?: boolean;
  /** `text` resolves to the body as a string. Default `json`. */
  responseType?: 'json' | 'text';
}

/** A `Date` is sent as its RFC 3339 instant in UTC (`toISOString()`). */
export type QueryValue = string | number | boolean | Date | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

// ---------------------------------------------------------------------------
// Answers

export interface APIResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The `X-Request-ID` of the answer. */
  requestId: string | null;
}

/** A promise of the body that can also give the whole answer. */
export declare class APIPromise<T> implements PromiseLike<T> {
  private constructor();
  /** The body with the status (e.g. 201 created / 200 replaced), headers and request id. */
  withResponse(): Promise<APIResponse<T>>;
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2>;
  catch<R = never>(onrejected?: ((reason: any) => R | PromiseLike<R>) | null): Promise<T | R>;
  finally(onfinally?: (() => void) | null): Promise<T>;
  readonly [Symbol.toStringTag]: string;
}

export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

export interface PageParams {
  /** 1-500, default 50. */
  limit?: number;
  cursor?: string;
}

export interface ServiceInfo {
  service: string;
  version: string;
  api_version: string;
}

// ---------------------------------------------------------------------------
// Assets

/** Known values; the vocabulary is open. */
export type KnownAssetType =
  | 'table' | 'view' | 'model' | 'source' | 'seed' | 'snapshot' | 'file' | 'topic'
  | 'dashboard' | 'report' | 'ml_model' | 'job' | 'pipeline' | 'exposure' | 'unknown';
export type AssetType = KnownAssetType | (string & {});

export interface Column {
  name: string;
  type?: string | null;
  description?: string | null;
  tags?: string[];
}

export type PropertyValue = string | number | boolean;

/**
 * A physical dataset as OpenLineage names it: `namespace` says where
 * (`snowflake://acme-prod`, `postgres://db:5432`, `s3://bucket`), `name` what
 * (`ANALYTICS.PUBLIC.ORDERS`, `path/to/file`). The service stores it normalised
 * by the platform's rules (Snowflake upper-cases unquoted names, Postgres
 * lower-cases them, default ports are added), so any spelling finds it.
 * Each part 1-510 characters with no whitespace; `namespace/name` at most 512.
 */
export interface Dataset {
  namespace: string;
  name: string;
}

/** An edge's end: an asset id (a former id too), or the dataset an asset holds. */
export type EdgeEnd = string | Dataset;

/** What a client writes. Read-only fields from a GET are accepted and ignored. */
export interface AssetInput {
  name: string;
  type: AssetType;
  platform?: string | null;
  description?: string | null;
  owners?: string[];
  /** 1-64 characters each; stored lower-case, duplicates dropped. */
  tags?: string[];
  columns?: Column[];
  properties?: Record<string, PropertyValue>;
  /**
   * The physical dataset this asset is; at most one asset holds a dataset. A
   * placeholder holding it is merged into this asset (its id becomes an alias);
   * another asset created explicitly holding it is a ConflictError `dataset_taken`.
   */
  dataset?: Dataset | null;
}

export interface AssetCreate extends AssetInput {
  /** 1-512 characters, no whitespace or control characters; `/ : @ ( ) , $ #` allowed. */
  id: string;
}

/** PUT body: the id comes from the path; if the body names one it must agree. */
export interface AssetReplace extends AssetInput {
  id?: string;
}

/** A JSON merge patch (RFC 7396): `null` removes a field; `id` cannot change. */
export type AssetPatch = {
  [K in keyof AssetInput]?: AssetInput[K] | null;
} & Record<string, unknown>;

export interface Asset {
  id: string;
  name: string;
  type: AssetType;
  platform: string | null;
  description: string | null;
  owners: string[];
  tags: string[];
  columns: Column[];
  properties: Record<string, PropertyValue>;
  /** The physical dataset, as stored (normalised); null when it has none. */
  dataset: Dataset | null;
  /** Former ids of assets merged into this one; each still finds it. Read-only. */
  aliases: string[];
  /** Made by lineage for an id no one created yet. */
  placeholder: boolean;
  created_at: string;
  updated_at: string;
  /** Starts at 1; the ETag is `"<version>"`. */
  version: number;
  /** The domain the asset is in (null: none). Read-only: the domains' rules decide. */
  domain?: string | null;
}

export interface AssetFilters extends PageParams {
  type?: string;
  platform?: string;
  /** Every tag given must be on the asset. */
  tag?: string | readonly string[];
  owner?: string;
  /** Case-insensitive substring of id, name or description. */
  q?: string;
  placeholder?: boolean;
  /** The assets holding a dataset in this namespace (any spelling: it is normalised). */
  dataset_namespace?: string;
  /** With `dataset_namespace`: the one asset holding this dataset, if any (0 or 1 items). */
  dataset_name?: string;
  /** The assets in this domain. */
  domain?: string;
}

export declare class Assets {
  private constructor();
  list(params?: AssetFilters, options?: RequestOptions): APIPromise<Page<Asset>>;
  iterate(params?: AssetFilters, options?: RequestOptions): AsyncGenerator<Asset, void, undefined>;
  create(asset: AssetCreate, options?: RequestOptions): APIPromise<Asset>;
  get(id: string, options?: RequestOptions): APIPromise<Asset>;
  put(id: string, asset: AssetReplace, options?: ConditionalOptions): APIPromise<Asset>;
  patch(id: string, patch: AssetPatch, options?: ConditionalOptions): APIPromise<Asset>;
  delete(id: string, options?: ConditionalOptions): APIPromise<void>;
  /** One page of the asset's versions, newest first. */
  listHistory(id: string, params?: PageParams, options?: RequestOptions): APIPromise<Page<AssetVersion>>;
  /** Every version of the asset, newest first, page after page. */
  iterateHistory(id: string, params?: PageParams, options?: RequestOptions): AsyncGenerator<AssetVersion, void, undefined>;
  /** The asset's columns with their own and inherited tags; NotFoundError for an unknown asset. */
  columns(id: string, options?: RequestOptions): APIPromise<AssetColumns>;
  /** Which mapping kinds stop a column tag; the default rule for a tag without one. */
  getColumnTagRule(tag: string, options?: RequestOptions): APIPromise<ColumnTagRule>;
  /** Sets the mapping kinds that stop a column tag (`[]`: none). Idempotent. */
  putColumnTagRule(tag: string, rule: ColumnTagRuleInput, options?: RequestOptions): APIPromise<ColumnTagRule>;
}

/** What a column mapping does to the values it carries. */
export type MappingKind = 'identity' | 'transformation' | 'masking' | 'aggregation' | 'indirect' | 'unknown';

/** One column on an inherited tag's path; `kind` is the mapping's into it, null for the tagged column. */
export interface ColumnPathStep {
  asset: string;
  column: string;
  kind: MappingKind | null;
}

/** Why a column holds `tag`: the column holding it directly, and the fewest-mappings path from there. */
export interface InheritedTag {
  tag: string;
  from: ColumnRef;
  path: ColumnPathStep[];
}

export interface AssetColumn {
  name: string;
  type: string | null;
  /** The tags set on the column itself. */
  tags: string[];
  /** Tags inherited along column lineage, one per tag, by tag. */
  inherited: InheritedTag[];
}

/** The declared columns in their order, then those known only to column lineage that hold or inherit a tag. */
export interface AssetColumns {
  asset: string;
  columns: AssetColumn[];
}

/** A column tag's rule; `default` while the tag has no rule of its own (`updated_at` then null). */
export interface ColumnTagRule {
  tag: string;
  stops: MappingKind[];
  default: boolean;
  updated_at: string | null;
}

export interface ColumnTagRuleInput {
  stops: readonly MappingKind[];
}

/**
 * One difference from the version before: a field (`change` `set`, `column`
 * null) with its old and new value, or, with `field` `columns`, one column
 * `added`, `removed`, `retyped` or `changed` (`from`/`to`: the column as declared).
 */
export interface VersionChange {
  /** `name`, `type`, `description`, `owners`, `tags`, `dataset`, `properties.<key>`, `columns`, ... */
  field: string;
  column: string | null;
  change: 'set' | 'added' | 'removed' | 'retyped' | 'changed';
  from: unknown;
  to: unknown;
}

/** One version of an asset: when, by whom, and what it changed. */
export interface AssetVersion {
  version: number;
  at: string;
  /** `token:<id>`, `user:<id>`, or `system` for an asset older than its history. */
  actor: string;
  /** True for the version that says the asset was deleted. */
  deleted: boolean;
  changes: VersionChange[];
}

// ---------------------------------------------------------------------------
// Lineage

/** Column `source` of the edge's source asset feeds column `target` of its target asset. */
export interface ColumnMappingInput {
  source: string;
  target: string;
  transformation?: string | null;
}

export interface ColumnMapping {
  source: string;
  target: string;
  transformation: string | null;
  origins: string[];
}

export interface EdgeInput {
  /**
   * Data flows from source... An asset id, or a dataset that resolves to the
   * asset holding it (a placeholder `<namespace>/<name>` when none does).
   */
  source: EdgeEnd;
  /** ...into target. */
  target: EdgeEnd;
  /** SQL or free text. */
  transformation?: string | null;
  /** Column mappings, added to those the edge has (a pair of columns is one mapping). */
  columns?: ColumnMappingInput[] | null;
}

export interface Edge {
  /** The current ids of the assets at its ends. */
  source: string;
  target: string;
  transformation: string | null;
  /** Which writers asserted it: `api`, `dbt:<project>`, ... */
  origins: string[];
  /** Column lineage along this edge, by source then target column. */
  columns: ColumnMapping[];
  created_at: string;
  updated_at: string;
}

export interface CreatedExisting {
  created: number;
  existing: number;
}

export interface BulkResult {
  received: number;
  created: number;
  existing: number;
  assets_created: number;
  /** Present when the request carried `columns`. */
  column_mappings?: CreatedExisting;
  /** Present with `replace`: what the origin asserted before and this request left out. */
  retired?: Retired;
}

/** What an origin let go of when a `replace` made the request its whole edge set. */
export interface Retired {
  /** Edges it asserted before and not now: its assertion withdrawn. */
  edges: number;
  /** Of those, edges no other origin asserts: they left the graph. */
  edges_removed: number;
  column_mappings: number;
  column_mappings_removed: number;
}

export interface PushBulkResult extends BulkResult {
  /** How many requests were sent. */
  requests: number;
}

export interface EdgeFilters extends PageParams {
  source?: string;
  target?: string;
  origin?: string;
}

export type Direction = 'both' | 'upstream' | 'downstream';

export interface TraversalParams {
  /** Hops, 1-50, default 5. */
  depth?: number;
  /** Most nodes in the answer (root included), 1-10000, default 2000. */
  limit?: number;
  /** The graph as it stood at this moment (a `Date`, or an RFC 3339 string). Default now. */
  as_of?: Date | string;
}

export interface DiffParams {
  /** The earlier moment (a `Date`, or an RFC 3339 string). */
  from: Date | string;
  /** The later moment. Default now. */
  to?: Date | string;
  direction?: Direction;
  /** Hops, 1-50, default 5. */
  depth?: number;
  /** Most nodes of each neighbourhood (root included), default 2000. */
  limit?: number;
}

/** The file format of a lineage export. */
export type ExportFormat = 'openlineage' | 'dot' | 'mermaid' | 'csv';

export interface ExportParams {
  /**
   * `openlineage` (a JSON array of RunEvents that `openLineage` takes back),
   * `dot` (GraphViz), `mermaid` or `csv`.
   */
  format: ExportFormat;
  direction?: Direction;
  /** Hops, 1-50, default 5. */
  depth?: number;
  /** Most assets in the file (root included), up to the service's export maximum, also the default. */
  limit?: number;
  /** The lineage as it stood at this moment (a `Date`, or an RFC 3339 string). */
  as_of?: Date | string;
}

/** An asset's lineage neighbourhood written as a file. */
export interface LineageExport {
  /** The file's content as the service wrote it. */
  text: string;
  /**
   * The name the service gives the file (`Content-Disposition`'s `filename*`, else its
   * `filename`), such as `lineage-model.shop.orders.dot`; null when it named none.
   */
  filename: string | null;
  /** The neighbourhood was cut at `limit`. */
  truncated: boolean;
}

/** The nodes and edges one side of a diff has and the other lacks. */
export interface GraphChanges {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** An edge there at both moments whose transformation changed (`transformation`: at `to`). */
export interface ChangedEdge extends GraphEdge {
  previous_transformation: string | null;
}

/** How an asset's lineage changed between two moments, over both neighbourhoods. */
export interface LineageDiff {
  root: string;
  direction: Direction;
  depth: number;
  from: string;
  to: string;
  /** There at `to` and not at `from`, as shown at `to`. */
  added: GraphChanges;
  /** There at `from` and not at `to`, as shown at `from`. */
  removed: GraphChanges;
  changed: { edges: ChangedEdge[] };
  /** Either neighbourhood was cut at `limit`. */
  truncated: boolean;
}

export interface ImpactCheckOptions extends RequestOptions {
  /** The dbt project the candidate is compared with (its stored assets, edges and rules). */
  project: string;
  /** Where the project's tables live, as for `uploadManifest`. */
  namespace?: string;
  /** Hops walked downstream; default the service's maximum lineage depth. */
  depth?: number;
}

/** A difference between the candidate manifest and the stored project. */
export interface ImpactChange {
  /** `model_removed`, `column_removed`, `column_type_changed`, `test_removed`, `model_added`, `column_added`, ... */
  kind: string;
  asset: string;
  column: string | null;
  /** The stored value (a column's type, a materialization, ...); null when not applicable. */
  from: string | null;
  /** The candidate's value. */
  to: string | null;
  breaking: boolean;
}

/** An asset (or its column, where column lineage says) downstream of a breaking change. */
export interface ImpactedAsset {
  asset: string;
  column: string | null;
  distance: number;
  owners: string[];
  /** The path from the changed asset (first) to this one (last): asset ids, or `asset.column`. */
  via: string[];
}

/** What uploading a candidate manifest would change and break; nothing was written. */
export interface ImpactReport {
  project: string;
  changes: ImpactChange[];
  /** Each asset (or column) once, at its fewest hops, nearest first. */
  impacted: ImpactedAsset[];
  breaking: boolean;
  /** How many hops downstream the walk went at most. */
  depth: number;
}

/** What a traversal of an asset takes besides its bounds: a page cursor, filters and a fanout. */
export interface AssetTraversalParams extends TraversalParams {
  /** A page's `next_cursor`, sent with the same other params; absent for the first page. */
  cursor?: string;
  /**
   * Show only assets of one of these types; the walk goes through the others (`hidden`).
   * Each filter: any of its values; every filter given. Not with `as_of`.
   */
  type?: AssetType | readonly AssetType[];
  /** Show only assets on one of these platforms. */
  platform?: string | readonly string[];
  /** Show only assets carrying one of these tags. */
  tag?: string | readonly string[];
  /** Show only assets owned by one of these owners. */
  owner?: string | readonly string[];
  /** Show at most this many neighbours of any one node (`capped` lists those with more). Not with `as_of`. */
  fanout?: number;
}

export interface LineageParams extends AssetTraversalParams {
  direction?: Direction;
}

/** Nodes per side of the root; only the sides walked are present. */
export interface SideCounts {
  upstream?: number;
  downstream?: number;
}

/** A node of which the fanout showed `shown` of its `total` neighbours in `direction`. */
export interface CappedNode {
  id: string;
  direction: 'upstream' | 'downstream';
  shown: number;
  total: number;
}

export interface GraphNode {
  id: string;
  name: string;
  type: AssetType;
  platform: string | null;
  tags: string[];
  placeholder: boolean;
  /** Fewest hops from the root. */
  distance: number;
  direction: 'root' | 'upstream' | 'downstream';
  redacted?: false;
}

/**
 * A stand-in for a node the caller may not read (in a private domain). Its id,
 * `redacted:<n>`, numbers the stand-ins of one answer; edges name it too.
 */
export interface RedactedNode {
  id: string;
  redacted: true;
  /** The team owning the node's domain: whom to ask for access. */
  team: string | null;
  distance: number;
}

export interface GraphEdge {
  source: string;
  target: string;
  transformation: string | null;
}

/** One page of a traversal. */
export interface LineageGraph {
  root: string;
  direction: Direction;
  depth: number;
  /** Readable nodes, and stand-ins (`redacted: true`) for the others. */
  nodes: Array<GraphNode | RedactedNode>;
  /** The edges joining a node of this page to one of this or an earlier page: each edge comes in one page. */
  edges: GraphEdge[];
  /** More nodes are left: `next_cursor` is not null. */
  truncated: boolean;
  /** Pass as `cursor` (with the same other params) for the next page; null on the last. */
  next_cursor: string | null;
  /** Nodes on each side not returned yet. */
  remaining: SideCounts;
  /** Nodes on each side the walk went through but the filters hide. */
  hidden: SideCounts;
  /** With `fanout`: the nodes whose neighbours were cut. */
  capped: CappedNode[];
  /** How many of `nodes` are stand-ins for nodes the caller may not read. */
  redacted?: number;
}

export interface ColumnRef {
  asset: string;
  column: string;
}

export interface ColumnNode extends ColumnRef {
  /** Fewest hops from the root column (0 for the root). */
  distance: number;
}

export interface ColumnEdge {
  source: ColumnRef;
  target: ColumnRef;
  transformation: string | null;
}

export interface ColumnGraph {
  root: ColumnRef;
  direction: 'upstream' | 'downstream';
  depth: number;
  nodes: ColumnNode[];
  edges: ColumnEdge[];
  truncated: boolean;
}

/**
 * An OpenLineage RunEvent (https://openlineage.io/spec): the fields this service
 * reads are typed; producers may add anything else.
 */
export interface OpenLineageRunEvent {
  /** Absent reads as OTHER. Only COMPLETE events carry lineage. */
  eventType?: 'START' | 'RUNNING' | 'COMPLETE' | 'ABORT' | 'FAIL' | 'OTHER' | null;
  /** RFC 3339. */
  eventTime: string;
  producer: string;
  schemaURL: string;
  run: { runId: string; facets?: Record<string, Record<string, unknown>> | null };
  job: {
    namespace: string;
    name: string;
    facets?: ({ sql?: { query: string; dialect?: string | null } | null } & Record<string, unknown>) | null;
  };
  inputs?: OpenLineageDataset[] | null;
  outputs?: OpenLineageDataset[] | null;
  [extra: string]: unknown;
}

export interface OpenLineageDataset {
  namespace: string;
  name: string;
  facets?: ({
    schema?: { fields?: { name: string; type?: string | null; description?: string | null }[] | null } | null;
    columnLineage?: {
      fields: Record<
        string,
        {
          inputFields: {
            namespace: string;
            name: string;
            field: string;
            transformations?: { type: string; subtype?: string | null; description?: string | null }[] | null;
          }[];
          transformationDescription?: string | null;
          transformationType?: string | null;
        }
      >;
    } | null;
  } & Record<string, unknown>) | null;
  [extra: string]: unknown;
}

export interface OpenLineageResult {
  /** Run events in the request. */
  received: number;
  /** COMPLETE events: the ones that carry lineage. */
  complete: number;
  /** Distinct runs whose state was recorded. */
  runs: number;
  edges: CreatedExisting;
  column_mappings: CreatedExisting;
  /** Placeholder assets made; assets whose columns a `schema` facet changed. */
  assets: { created: number; updated: number };
  warnings: string[];
}

export interface PushOpenLineageResult extends OpenLineageResult {
  /** How many requests were sent (`runs` is summed per request). */
  requests: number;
}

export interface PushOpenLineageOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /** Events per request, at most the server's limit. Default 10000. */
  chunkSize?: number;
  /** Called after each request with its answer and its index (0-based). */
  onChunk?: (result: OpenLineageResult, index: number) => void | Promise<void>;
}

export declare class Lineage {
  private constructor();
  create(edge: EdgeInput, options?: StrictOptions): APIPromise<Edge>;
  bulk(edges: readonly EdgeInput[], options?: BulkOptions): APIPromise<BulkResult>;
  pushBulk(
    edges: Iterable<EdgeInput> | AsyncIterable<EdgeInput>,
    options?: PushBulkOptions,
  ): Promise<PushBulkResult>;
  listEdges(params?: EdgeFilters, options?: RequestOptions): APIPromise<Page<Edge>>;
  iterateEdges(params?: EdgeFilters, options?: RequestOptions): AsyncGenerator<Edge, void, undefined>;
  deleteEdge(source: string, target: string, options?: RequestOptions): APIPromise<void>;
  get(id: string, params?: LineageParams, options?: RequestOptions): APIPromise<LineageGraph>;
  /**
   * Every page of a traversal, from `params.cursor` on, following `next_cursor` with the
   * same other params (`limit` is the page size): each node in exactly one page, the root in the first.
   */
  lineagePages(id: string, params?: LineageParams, options?: RequestOptions): AsyncGenerator<LineageGraph, void, undefined>;
  upstream(id: string, params?: AssetTraversalParams, options?: RequestOptions): APIPromise<LineageGraph>;
  downstream(id: string, params?: AssetTraversalParams, options?: RequestOptions): APIPromise<LineageGraph>;
  /** How the lineage around `id` changed from `from` to `to` (default now). */
  diff(id: string, params: DiffParams, options?: RequestOptions): APIPromise<LineageDiff>;
  /** The neighbourhood of `id` written as a file in `params.format`: `{text, filename, truncated}`. */
  export(id: string, params: ExportParams, options?: RequestOptions): APIPromise<LineageExport>;
  /** The columns feeding `column` of asset `id`, and the mappings among them. */
  columnUpstream(id: string, column: string, params?: TraversalParams, options?: RequestOptions): APIPromise<ColumnGraph>;
  /** The columns `column` of asset `id` feeds. */
  columnDownstream(id: string, column: string, params?: TraversalParams, options?: RequestOptions): APIPromise<ColumnGraph>;
  /** One RunEvent or an array of at most 10000, in one transaction. */
  openLineage(
    events: OpenLineageRunEvent | readonly OpenLineageRunEvent[],
    options?: RequestOptions,
  ): APIPromise<OpenLineageResult>;
  /** Any number of RunEvents, chunked to the server's limit; the answers summed. */
  pushOpenLineage(
    events: Iterable<OpenLineageRunEvent> | AsyncIterable<OpenLineageRunEvent>,
    options?: PushOpenLineageOptions,
  ): Promise<PushOpenLineageResult>;
  /**
   * `POST /lineage/manifest`: a dbt `manifest.json` (file path or bytes), gzipped
   * unless it already is. Idempotent; retried like other POSTs. Timeout 600 s by default.
   */
  uploadManifest(pathOrBytes: string | Uint8Array | ArrayBuffer, options: ManifestUploadOptions): APIPromise<ManifestSummary>;
  /**
   * `POST /impact/manifest`: what uploading a candidate manifest would change and
   * break, writing nothing. Retried like a read. Timeout 600 s by default.
   */
  checkManifest(pathOrBytes: string | Uint8Array | ArrayBuffer, options: ImpactCheckOptions): APIPromise<ImpactReport>;
  /**
   * `POST /lineage/sql`: a statement, a `;`-separated script (`sql`) or a query log
   * (`statements`) becomes table and column lineage between the assets holding
   * its tables. A statement that does not parse is listed in `failures`; the rest
   * is written in one transaction. Retried like other POSTs; timeout 600 s by default.
   */
  ingestSql(body: SqlIngest, options?: RequestOptions): APIPromise<SqlResult>;
  /**
   * A query log of any length, sent through `ingestSql` in chunks of at most
   * `chunkSize` statements; the answers summed, failure indexes counted from the log's start.
   */
  pushSql(body: SqlPush, options?: PushSqlOptions): Promise<PushSqlResult>;
}

/** `pushSql`'s query log: any array, iterable or async iterable of statements. */
export interface SqlPush extends SqlIngestBase {
  statements: Iterable<LoggedStatement | string> | AsyncIterable<LoggedStatement | string>;
}

export interface PushSqlOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /** Statements per request, at most the server's limit. Default 10000. */
  chunkSize?: number;
  /** Called after each request with its answer (failure indexes from the log's start) and its index (0-based). */
  onChunk?: (result: SqlResult, index: number) => void | Promise<void>;
}

export interface PushSqlResult extends SqlResult {
  /** How many requests were sent. */
  requests: number;
}

/** One statement of a query log, as a warehouse's query history exports it. */
export interface LoggedStatement {
  sql: string;
  query_id?: string | null;
  user?: string | null;
  timestamp?: string | null;
}

/** What `ingestSql` takes besides `sql` or `statements`. */
export interface SqlIngestBase {
  /** sqlglot's dialect: `snowflake`, `bigquery`, `postgres`, `redshift`, `mysql`, `trino`, `duckdb`, ... */
  dialect: string;
  /** Where the tables live, as OpenLineage names it (`snowflake://acme-prod`). */
  namespace: string;
  /** Fills a table name's missing database (catalog, project). */
  default_database?: string | null;
  /** Fills a table name's missing schema (dataset). */
  default_schema?: string | null;
  /** Names the writer: the edges' origin is `sql:<source>`. Default `api`. */
  source?: string;
}

/** Exactly one of `sql` and `statements` (both or neither: ValidationError). */
export type SqlIngest =
  | (SqlIngestBase & {
      /** One statement, or a script of statements separated by `;`. */
      sql: string;
      statements?: undefined;
    })
  | (SqlIngestBase & {
      sql?: undefined;
      /** A query log of 1-10,000 statements; a string is `{sql}`. */
      statements: readonly (LoggedStatement | string)[];
    });

export interface SqlFailure {
  /** The statement's position, from 0. */
  index: number;
  /** The parser's or resolver's words. */
  message: string;
  query_id: string | null;
}

export interface SqlResult {
  /** `sql:<source>`. */
  origin: string;
  statements: {
    received: number;
    /** Statements that write a table from others. */
    with_lineage: number;
    /** Reads and DDL: parsed, nothing to write. */
    without_lineage: number;
    /** Not parsed or not resolved; listed in `failures`. */
    failed: number;
  };
  edges: CreatedExisting;
  column_mappings: CreatedExisting;
  /** Placeholders made for tables no asset holds. */
  assets_created: number;
  failures: SqlFailure[];
  warnings: string[];
}

export interface ManifestUploadOptions extends RequestOptions {
  /** The dbt project the manifest's assets, edges and rules belong to. */
  project: string;
  /** Remove what earlier uploads of this project asserted and this one does not. Default true. */
  prune?: boolean;
  /**
   * Where the project's tables live, as OpenLineage names it (`snowflake://acme-prod`):
   * each model, seed, snapshot and source then holds the dataset
   * `(namespace, database.schema.identifier)`, so events, SQL and edges naming that
   * table meet the dbt node. Default: the namespace the service has configured for
   * the manifest's adapter, else none.
   */
  namespace?: string;
}

export interface ManifestSummary {
  project: string;
  dbt_version: string | null;
  dbt_schema_version: string | null;
  /** `merged`: placeholders (and other projects' sources) holding a dataset of this manifest, merged into its node. */
  assets: { created: number; updated: number; merged: number };
  edges: { created: number; existing: number; removed: number };
  quality_rules: { created: number; updated: number; removed: number };
  /** Nodes left out (unsupported kinds, disabled, ...). */
  skipped: unknown[];
  warnings: unknown[];
}

// ---------------------------------------------------------------------------
// Events

/** A known event type or a pattern such as `asset.*`. */
export type EventTypePattern = string;

export interface GovernanceEvent<D = Record<string, any>> {
  /** `evt_...` */
  id: string;
  /** Sequence number: events are ordered by it. */
  seq: number;
  /** `asset.created`, `asset.merged`, `lineage.manifest.ingested`, ... */
  type: string;
  occurred_at: string;
  actor: string | null;
  data: D;
  [extra: string]: unknown;
}

/** The `data` of an `asset.merged` event: the asset `from` became an alias of `into`. */
export interface AssetMergedData {
  from: string;
  into: string;
}

export interface EventFilters extends PageParams {
  /** Events after this sequence number. Default 0. */
  after?: number;
  /** Types or patterns (`asset.*`), sent comma-separated. */
  types?: string | readonly EventTypePattern[];
}

export interface EventStreamParams {
  /** Start with the events after this sequence number; default: with the next change. */
  after?: number | null;
  /** Types or patterns (`asset.*`), sent comma-separated. */
  types?: string | readonly EventTypePattern[];
  /** Called each time the stream is connected (and resumed), before its events. */
  onConnect?: (info: { reconnect: boolean; lastEventId: string | null }) => void | Promise<void>;
}

export declare class Events {
  private constructor();
  /** One page of `GET /events`, oldest first. */
  list(params?: EventFilters, options?: RequestOptions): APIPromise<Page<GovernanceEvent>>;
  /** Every matching event, following `next_cursor`. */
  iterate(params?: EventFilters, options?: RequestOptions): AsyncGenerator<GovernanceEvent, void, undefined>;
  /**
   * Live events (Server-Sent Events), resumed after a dropped connection with
   * `Last-Event-ID`. Ends when you leave the loop; `signal` aborts it.
   * `maxRetries` bounds failed connection attempts in a row (`Infinity` is
   * allowed); `timeoutMs` is also the longest silence accepted.
   */
  stream(params?: EventStreamParams, options?: RequestOptions): AsyncGenerator<GovernanceEvent, void, undefined>;
}

// ---------------------------------------------------------------------------
// Tokens

export type Scope = 'read' | 'write' | 'admin';

export interface TokenCreate {
  name: string;
  scopes: Scope[];
  /** 1-3650; none means it never expires. */
  expires_in_days?: number | null;
}

export interface Token {
  /** `tok_` + ULID. */
  id: string;
  name: string;
  scopes: Scope[];
  /** The first 8 characters of the secret. */
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_by?: string | null;
  /** The user who made it; null for a token made by `governance token create`. */
  user_id: string | null;
}

export interface TokenCreated extends Token {
  /** The secret (`dgs_...`), shown this once. */
  token: string;
}

export declare class Tokens {
  private constructor();
  list(params?: PageParams, options?: RequestOptions): APIPromise<Page<Token>>;
  iterate(params?: PageParams, options?: RequestOptions): AsyncGenerator<Token, void, undefined>;
  /** Never retried: the service keeps no answer holding a secret, so a repeat would make a second token. */
  create(token: TokenCreate, options?: RequestOptions): APIPromise<TokenCreated>;
  get(id: string, options?: RequestOptions): APIPromise<Token>;
  revoke(id: string, options?: RequestOptions): APIPromise<void>;
}

// ---------------------------------------------------------------------------
// Users

export type Role = 'viewer' | 'editor' | 'admin';

export interface UserCreate {
  /** 1-64 letters, digits, `.`, `_`, `-`, `@`; unique ignoring case. */
  username: string;
  /** 12-256 characters; stored only as a hash. */
  password: string;
  role: Role;
  display_name?: string | null;
}

/** A JSON merge patch: only the fields present change; `display_name: null` removes it. */
export interface UserPatch {
  role?: Role;
  display_name?: string | null;
  disabled?: boolean;
  password?: string;
}

export interface User {
  /** `usr_` + ULID. */
  id: string;
  username: string;
  display_name: string | null;
  role: Role;
  disabled: boolean;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
}

/** `GET /me`: the calling token, and its user (null for a token made on the command line). */
export interface Me {
  token: Token;
  user: User | null;
  user_id?: string | null;
  username?: string | null;
  /** The global role: the user's, or for a command-line token the one its scope names. */
  role?: Role;
  /** What the token may do now: its scopes capped by the user's best role anywhere. */
  scopes?: Scope[];
  /** The ids of the user's teams. */
  teams?: string[];
  /** The user's role in each domain where they have one, by domain id. */
  domain_roles?: Record<string, Role>;
}

export declare class Users {
  private constructor();
  list(params?: PageParams, options?: RequestOptions): APIPromise<Page<User>>;
  iterate(params?: PageParams, options?: RequestOptions): AsyncGenerator<User, void, undefined>;
  /** 201; ConflictError `already_exists` for a username taken in any letter case. */
  create(user: UserCreate, options?: RequestOptions): APIPromise<User>;
  get(id: string, options?: RequestOptions): APIPromise<User>;
  /** ConflictError `last_admin` when it would leave no enabled admin. */
  patch(id: string, patch: UserPatch, options?: RequestOptions): APIPromise<User>;
  delete(id: string, options?: RequestOptions): APIPromise<void>;
}

// ---------------------------------------------------------------------------
// Teams and domains

/** A whole collection in one answer (teams, domains): no cursor. */
export interface Items<T> {
  items: T[];
}

export interface TeamPut {
  display_name?: string | null;
  /** Identity-provider groups: at each single sign-on, membership follows them. Empty: managed by hand. */
  idp_groups?: string[];
}

export interface Team {
  /** A slug: `a-z 0-9`, then up to 62 of `a-z 0-9 _ -`. */
  id: string;
  display_name: string | null;
  idp_groups: string[];
  /** User ids. */
  members: string[];
  created_at: string;
  updated_at: string;
}

export declare class Teams {
  private constructor();
  /** Every team, in one answer. */
  list(options?: RequestOptions): APIPromise<Items<Team>>;
  /** 201 created, 200 replaced. */
  put(id: string, team?: TeamPut, options?: RequestOptions): APIPromise<Team>;
  get(id: string, options?: RequestOptions): APIPromise<Team>;
  /** ConflictError `team_owns_domains` while the team owns a domain. */
  delete(id: string, options?: RequestOptions): APIPromise<void>;
  /** NotFoundError for an unknown team or user. */
  addMember(id: string, userId: string, options?: RequestOptions): APIPromise<void>;
  removeMember(id: string, userId: string, options?: RequestOptions): APIPromise<void>;
}

/**
 * Which assets belong: an `asset` id, a `dbt_project`, an id `namespace` prefix
 * or a `tag`; between domains, in that order of precedence.
 */
export interface DomainRule {
  kind: 'asset' | 'dbt_project' | 'namespace' | 'tag';
  value: string;
}

export interface DomainGrant {
  team: string;
  role: Role;
}

export interface DomainPut {
  /** Implicitly admin of the domain. */
  owner_team: string;
  /** At most 100. */
  rules?: DomainRule[];
  /** At most 100. */
  grants?: DomainGrant[];
  /** Hides the domain's assets from callers with no role in it. Default false. */
  private?: boolean;
  display_name?: string | null;
  description?: string | null;
}

export interface Domain {
  id: string;
  display_name: string | null;
  description: string | null;
  private: boolean;
  owner_team: string;
  rules: DomainRule[];
  /** The owner team's implicit admin grant included. */
  grants: DomainGrant[];
  asset_count: number;
  created_at: string;
  updated_at: string;
}

export declare class Domains {
  private constructor();
  /** Every domain the caller may see, in one answer. */
  list(options?: RequestOptions): APIPromise<Items<Domain>>;
  /** 201 created, 200 replaced; ValidationError for an unknown team. */
  put(id: string, domain: DomainPut, options?: RequestOptions): APIPromise<Domain>;
  get(id: string, options?: RequestOptions): APIPromise<Domain>;
  /** Its assets leave it. */
  delete(id: string, options?: RequestOptions): APIPromise<void>;
}

// ---------------------------------------------------------------------------
// Webhooks (management; verification is below)

export interface WebhookCreate {
  /** https to a public address, unless the service allows private targets. */
  url: string;
  /** Event types or `prefix.*` patterns. Default `['*']`. */
  types?: EventTypePattern[];
  /** Default true. */
  enabled?: boolean;
  description?: string | null;
}

/** A JSON merge patch: fields left out keep their value. */
export interface WebhookPatch {
  url?: string;
  types?: EventTypePattern[];
  /** `true` on a disabled webhook clears its failure state. */
  enabled?: boolean;
  description?: string | null;
}

export interface Webhook {
  /** `whk_` + ULID. */
  id: string;
  url: string;
  types: string[];
  enabled: boolean;
  description: string | null;
  created_at: string;
  updated_at: string;
  failing_since: string | null;
  disabled_reason: string | null;
  last_delivery_at: string | null;
}

export interface WebhookCreated extends Webhook {
  /** `whsec_...`: signs every delivery; shown this once. */
  secret: string;
}

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled' | (string & {});
  attempts: number;
  last_status: number | null;
  /** The service's account of a failure; never the receiver's body. */
  last_error: string | null;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

export interface WebhookTestResult {
  delivered: boolean;
  /** The receiver's status, if it answered. */
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export declare class Webhooks {
  private constructor();
  list(params?: PageParams, options?: RequestOptions): APIPromise<Page<Webhook>>;
  iterate(params?: PageParams, options?: RequestOptions): AsyncGenerator<Webhook, void, undefined>;
  /** 201 with the secret, shown once. Never retried (a repeat would make a second webhook). */
  create(webhook: WebhookCreate, options?: RequestOptions): APIPromise<WebhookCreated>;
  get(id: string, options?: RequestOptions): APIPromise<Webhook>;
  patch(id: string, patch: WebhookPatch, options?: RequestOptions): APIPromise<Webhook>;
  delete(id: string, options?: RequestOptions): APIPromise<void>;
  /** Sends a signed `webhook.test` event now. */
  test(id: string, options?: RequestOptions): APIPromise<WebhookTestResult>;
  /** One page of the delivery log. */
  listDeliveries(id: string, params?: PageParams, options?: RequestOptions): APIPromise<Page<Delivery>>;
  /** Every delivery, following `next_cursor`. */
  iterateDeliveries(id: string, params?: PageParams, options?: RequestOptions): AsyncGenerator<Delivery, void, undefined>;
  /** `verifyWebhook`, at hand on the client. */
  verify<T = GovernanceEvent>(
    secret: string,
    headers: WebhookHeaders,
    body: string | Uint8Array,
    options?: VerifyWebhookOptions,
  ): T;
}

// ---------------------------------------------------------------------------
// Policies

export type PolicyKind =
  | 'require_owner'
  | 'require_description'
  | 'require_quality_rule'
  | 'tag_propagation'
  | 'restricted_flow';
export type PolicySeverity = 'low' | 'medium' | 'high' | 'critical';

/** Which assets a policy governs: every criterion given must hold; an empty selector governs all. */
export interface PolicySelector {
  /** One type or a list (any of). */
  type?: string | string[];
  /** One platform or a list (any of). */
  platform?: string | string[];
  /** Every tag must be present. */
  tags?: string[];
  id_prefix?: string;
}

/** `params` by kind; `require_owner` and `require_description` take none. */
export type PolicyParams =
  | Record<string, never>
  | { types?: RuleType[] }
  | { tag: string; max_depth?: number }
  | { to: PolicySelector; max_depth?: number };

/** What a client writes. Read-only fields from a GET are accepted by `replace` and ignored. */
export interface PolicyInput {
  name: string;
  kind: PolicyKind;
  description?: string | null;
  /** Default true. */
  enabled?: boolean;
  /** Default `medium`. */
  severity?: PolicySeverity;
  selector?: PolicySelector;
  params?: PolicyParams;
}

/** A JSON merge patch of a policy: `null` removes a field. */
export type PolicyPatch = {
  [K in keyof PolicyInput]?: PolicyInput[K] | null;
} & Record<string, unknown>;

export interface Policy {
  /** `pol_` + ULID. */
  id: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  enabled: boolean;
  severity: PolicySeverity;
  selector: PolicySelector;
  /** With the kind's defaults filled in (e.g. `max_depth: 50`). */
  params: Record<string, any>;
  version: number;
  created_at: string;
  updated_at: string;
  /** When violations were last computed; null before the first evaluation. */
  evaluated_at: string | null;
}

export interface PolicyFilters extends PageParams {
  kind?: PolicyKind;
  enabled?: boolean;
}

export interface Violation {
  asset_id: string;
  reason: string;
  /** For the lineage kinds: the offending path of asset ids. */
  path?: string[] | null;
  opened_at: string;
}

/** One page of a policy's open violations, ordered by asset id. */
export interface Violations {
  policy_id: string;
  evaluated_at: string | null;
  violations: Violation[];
  next_cursor: string | null;
}

export interface EvaluationSummary {
  evaluated_at: string;
  policies: { policy_id: string; violations: number; opened: number; resolved: number }[];
}

export declare class Policies {
  private constructor();
  list(params?: PolicyFilters, options?: RequestOptions): APIPromise<Page<Policy>>;
  iterate(params?: PolicyFilters, options?: RequestOptions): AsyncGenerator<Policy, void, undefined>;
  /** 201. An unknown kind, selector key or param: ValidationError naming it (`body.kind`). */
  create(policy: PolicyInput, options?: RequestOptions): APIPromise<Policy>;
  get(id: string, options?: RequestOptions): APIPromise<Policy>;
  /** PUT: replaces the definition; never creates (NotFoundError). */
  replace(id: string, policy: PolicyInput, options?: ConditionalOptions): APIPromise<Policy>;
  patch(id: string, patch: PolicyPatch, options?: ConditionalOptions): APIPromise<Policy>;
  delete(id: string, options?: ConditionalOptions): APIPromise<void>;
  /** One page of open violations, with `evaluated_at`. */
  listViolations(id: string, params?: PageParams, options?: RequestOptions): APIPromise<Violations>;
  /** Every open violation, following `next_cursor`. */
  iterateViolations(id: string, params?: PageParams, options?: RequestOptions): AsyncGenerator<Violation, void, undefined>;
  /** Evaluates every enabled policy now. */
  evaluate(options?: RequestOptions): APIPromise<EvaluationSummary>;
}

// ---------------------------------------------------------------------------
// Quality

export type RuleType =
  | 'not_null' | 'unique' | 'accepted_values' | 'relationships'
  | 'range' | 'freshness' | 'row_count' | 'custom';
export type RuleSeverity = 'warn' | 'error';
export type RuleStatus = 'unknown' | 'passing' | 'failing' | 'error';
export type ResultStatus = 'pass' | 'fail' | 'error';

/** What a client writes. Read-only fields from a GET are accepted by `replace` and ignored. */
export interface QualityRuleInput {
  /** The asset must exist. */
  asset_id: string;
  column?: string | null;
  name: string;
  type: RuleType;
  /**
   * By type: accepted_values `{values}`, relationships `{to, field?}`, range and
   * row_count `{min?, max?}`, freshness `{max_age_hours}`; others any object.
   */
  params?: Record<string, unknown>;
  /** Default `warn`. */
  severity?: RuleSeverity;
  enabled?: boolean;
}

export type QualityRulePatch = {
  [K in keyof QualityRuleInput]?: QualityRuleInput[K] | null;
} & Record<string, unknown>;

export interface QualityRule {
  /** `qr_` + ULID, or the dbt test's `unique_id`. */
  id: string;
  asset_id: string;
  column: string | null;
  name: string;
  type: RuleType;
  params: Record<string, any>;
  severity: RuleSeverity;
  enabled: boolean;
  /** Follows the newest result by `run_at`. */
  status: RuleStatus;
  last_result: Record<string, any> | null;
  /** `dbt:<project>` for rules made from dbt tests, else `api`. */
  origin?: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface QualityRuleFilters extends PageParams {
  asset_id?: string;
  status?: RuleStatus;
  type?: RuleType;
}

export interface ResultInput {
  status: ResultStatus;
  /** Any JSON value, e.g. a failing-row count. */
  observed_value?: unknown;
  message?: string | null;
  /** When the check ran (a Date, or RFC 3339 with an offset); default now. */
  run_at?: string | Date | null;
}

export interface QualityResult {
  id: string;
  rule_id: string;
  status: ResultStatus;
  observed_value: unknown;
  message: string | null;
  run_at: string;
  recorded_at: string;
  /** `api`, or `dbt:<invocation_id>`. */
  source: string;
}

export interface DbtResultsSummary {
  /** Results in the file. */
  received: number;
  /** Test results recorded against a rule. */
  recorded: number;
  /** Test ids with no rule here (upload the manifest first); not an error. */
  unmatched: string[];
  skipped: number;
  /** Results of models, seeds and snapshots. */
  ignored: number;
  /** Older than the rule's newest result: kept in history, status unchanged. */
  stale: number;
  /** Already recorded from this dbt invocation. */
  duplicates: number;
  /** Rules that turned failing with this upload. */
  failed: string[];
  /** Rules that turned passing with this upload. */
  recovered: string[];
}

export declare class Quality {
  private constructor();
  list(params?: QualityRuleFilters, options?: RequestOptions): APIPromise<Page<QualityRule>>;
  iterate(params?: QualityRuleFilters, options?: RequestOptions): AsyncGenerator<QualityRule, void, undefined>;
  create(rule: QualityRuleInput, options?: RequestOptions): APIPromise<QualityRule>;
  get(id: string, options?: RequestOptions): APIPromise<QualityRule>;
  /** PUT: replaces the definition; never creates. Status and history stay. */
  replace(id: string, rule: QualityRuleInput, options?: ConditionalOptions): APIPromise<QualityRule>;
  patch(id: string, patch: QualityRulePatch, options?: ConditionalOptions): APIPromise<QualityRule>;
  delete(id: string, options?: ConditionalOptions): APIPromise<void>;
  /** 201. A bare status is `{status}`. */
  recordResult(ruleId: string, result: ResultInput | ResultStatus, options?: RequestOptions): APIPromise<QualityResult>;
  /** One page of results, newest first. */
  listResults(ruleId: string, params?: PageParams, options?: RequestOptions): APIPromise<Page<QualityResult>>;
  /** Every kept result, newest first. */
  iterateResults(ruleId: string, params?: PageParams, options?: RequestOptions): AsyncGenerator<QualityResult, void, undefined>;
  /**
   * A dbt `run_results.json` (file path, bytes, or the parsed object), gzipped on
   * the way. Retried like other POSTs; timeout 600 s by default.
   */
  uploadDbtResults(
    source: string | Uint8Array | ArrayBuffer | Record<string, unknown>,
    options?: RequestOptions,
  ): APIPromise<DbtResultsSummary>;
}

// ---------------------------------------------------------------------------
// Query

/** Which assets match: every field given must hold; a list means any of. */
export interface AssetFilter {
  type?: string | string[];
  platform?: string | string[];
  tags_all?: string | string[];
  tags_any?: string | string[];
  owner?: string | string[];
  id_prefix?: string | string[];
  /** Case-insensitive substring of the name. */
  name_contains?: string;
  placeholder?: boolean;
  has_upstream?: boolean;
  has_downstream?: boolean;
  properties?: Record<string, PropertyValue | PropertyValue[]>;
}

export type ReturnForm = 'nodes' | 'edges' | 'graph' | 'paths' | 'count';

/** A JSON query: `start` (with an optional `traverse`) or `path`. */
export interface QueryBody {
  start?: { ids: string[] } | { where: AssetFilter };
  traverse?: {
    direction?: Direction;
    /** 0 adds the start assets at distance 0. Default 1. */
    min_depth?: number;
    /** 1-50, default 5. */
    max_depth?: number;
    /** Which reached assets are returned. */
    where?: AssetFilter;
    /** Which assets a path may pass through. */
    through?: AssetFilter;
  };
  path?: {
    from: string;
    to: string;
    direction?: Direction;
    max_depth?: number;
    all_shortest?: boolean;
    through?: AssetFilter;
  };
  /** Default `paths` for a path query, else `nodes`. */
  return?: ReturnForm;
  /** Items per page, 1-10000, default 100. */
  limit?: number;
  cursor?: string | null;
}

export interface QueryNode {
  id: string;
  name: string;
  type: AssetType;
  platform: string | null;
  tags: string[];
  placeholder: boolean;
  /** Fewest hops from the start (or along the path). */
  distance: number;
}

/** The requested parts only, and `next_cursor` always. */
export interface QueryResult {
  nodes?: QueryNode[];
  edges?: GraphEdge[];
  /** Each path as its asset ids. */
  paths?: string[][];
  count?: number;
  /** Path queries: more paths exist than the service enumerates. */
  truncated?: boolean;
  next_cursor: string | null;
}

export interface CypherParams {
  parameters?: Record<string, unknown>;
  /** Most rows, 1-10000, default 1000; then `truncated`. */
  limit?: number;
}

export interface CypherResult {
  columns: string[];
  /** Each row a list in the order of `columns`. */
  rows: unknown[][];
  truncated: boolean;
}

/** What `query.iterate` yields for a body's return form. */
export type QueryItem<B extends QueryBody> = B extends { return: 'edges' }
  ? GraphEdge
  : B extends { return: 'paths' }
    ? string[]
    : B extends { return: 'nodes' }
      ? QueryNode
      : B extends { path: object }
        ? string[]
        : QueryNode;

export declare class Query {
  private constructor();
  /** One answer. Only reads: retried like a GET, no Idempotency-Key. */
  run(body: QueryBody, options?: RequestOptions): APIPromise<QueryResult>;
  /** Every page, sending the same body again with each `next_cursor`. */
  pages(body: QueryBody, options?: RequestOptions): AsyncGenerator<QueryResult, void, undefined>;
  /**
   * Every node, edge or path across the pages (throws a TypeError at once for
   * `return: 'graph'` or `'count'`: use `pages`).
   */
  iterate<B extends QueryBody>(body: B, options?: RequestOptions): AsyncGenerator<QueryItem<B>, void, undefined>;
  /** Read-only Cypher (admin scope). A write: ValidationError `forbidden_query`. */
  cypher(query: string, params?: CypherParams, options?: RequestOptions): APIPromise<CypherResult>;
}

// ---------------------------------------------------------------------------
// The client

export declare const VERSION: string;
export declare const DEFAULT_TIMEOUT_MS: 60000;
export declare const DEFAULT_MAX_RETRIES: 2;
/** The address used when neither `baseURL` nor `GOVERNANCE_URL` gives one. */
export declare const DEFAULT_BASE_URL: 'http://localhost:8080';
/** The wait before reconnecting an event stream until the server sets one with `retry:`. */
export declare const DEFAULT_RECONNECT_MS: 2000;

export interface Health {
  status: string;
}

export declare class GovernanceClient {
  constructor(options?: ClientOptions);
  /** The normalised API root, ending in `/api/v1`. */
  readonly baseURL: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly assets: Assets;
  readonly lineage: Lineage;
  readonly tokens: Tokens;
  readonly users: Users;
  readonly events: Events;
  readonly webhooks: Webhooks;
  readonly policies: Policies;
  readonly quality: Quality;
  readonly query: Query;
  readonly teams: Teams;
  readonly domains: Domains;
  /** `GET /api/v1` (no token needed). */
  info(options?: RequestOptions): APIPromise<ServiceInfo>;
  /** `GET /api/v1/openapi.json` (no token needed). */
  openapi(options?: RequestOptions): APIPromise<Record<string, any>>;
  /** `GET /api/v1/me`: the calling token and its user. */
  me(options?: RequestOptions): APIPromise<Me>;
  /** `GET /healthz`: the process is up (no token needed). */
  healthz(options?: RequestOptions): APIPromise<Health>;
  /** `GET /readyz`: the database is reachable; UnavailableError (503) otherwise. */
  readyz(options?: RequestOptions): APIPromise<Health>;
  /** `GET /metrics`: Prometheus text (no token needed). */
  metrics(options?: RequestOptions): APIPromise<string>;
  /** Any request, with the same timeouts, retries and errors as the methods. */
  request<T = any>(spec: RequestSpec): APIPromise<T>;
  /** Follows `next_cursor`, yielding each item. */
  paginate<T>(
    fetchPage: (cursor: string | undefined) => PromiseLike<Page<T>>,
    cursor?: string,
  ): AsyncGenerator<T, void, undefined>;
}
export default GovernanceClient;

// ---------------------------------------------------------------------------
// Errors

/** An RFC 9457 problem as the service sends it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  request_id: string;
  errors?: FieldProblem[];
  /** 409 `dataset_taken`: the asset holding the dataset. */
  holder?: string;
  [extra: string]: unknown;
}

export interface FieldProblem {
  /** Where: `["body", 3, "target"]`, `["query", "limit"]`. */
  loc: (string | number)[];
  msg: string;
  type: string;
}

export type ErrorKind =
  | 'api' | 'bad_request' | 'authentication' | 'permission' | 'not_found' | 'conflict'
  | 'precondition_failed' | 'validation' | 'rate_limited' | 'server' | 'unavailable';

/** Anything this library raises. */
export declare class GovernanceError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
}

/** The service answered with an error status. */
export declare class APIError extends GovernanceError {
  static readonly kind: ErrorKind;
  constructor(status: number, problem: Problem | null, headers: Headers, bodyText?: string);
  readonly status: number;
  /** Stable snake_case code, e.g. `asset_not_found`; null if the body held no problem. */
  readonly code: string | null;
  readonly requestId: string | null;
  readonly problem: Problem | null;
  readonly detail: string | null;
  /** Field problems (422 mostly); empty otherwise. */
  readonly errors: FieldProblem[];
  readonly headers: Headers;
  readonly kind: ErrorKind;
}
/** 400 malformed request, 405, 413 body too large, 415, other 4xx. */
export declare class BadRequestError extends APIError {}
/** 401: no token, or a malformed, unknown, expired or revoked one. */
export declare class AuthenticationError extends APIError {}
/** 403 `insufficient_scope`. */
export declare class PermissionError extends APIError {}
/** An asset a write was refused on, and its domain (null: outside every domain). */
export interface RefusedAsset {
  id: string;
  domain: string | null;
}
/** 403 `domain_forbidden`: nothing was written. */
export declare class DomainForbiddenError extends PermissionError {
  /** The refused assets (the first 100). */
  readonly assets: RefusedAsset[];
  /** How many were refused in all. */
  readonly assetsCount: number;
}
export declare class NotFoundError extends APIError {}
/**
 * 409: the id exists (`already_exists`), the dataset is another asset's
 * (`dataset_taken`, `problem.holder` names it), or the Idempotency-Key is in use.
 * Never retried.
 */
export declare class ConflictError extends APIError {}
/** 412: `ifMatch` did not match; nothing changed. */
export declare class PreconditionFailedError extends APIError {}
/** 422: `validation_error`, `too_many_items`, `unknown_assets`, `self_loop`, ... */
export declare class ValidationError extends APIError {}
export declare class RateLimitedError extends APIError {
  /** Seconds from Retry-After, or null. */
  readonly retryAfter: number | null;
}
export declare class ServerError extends APIError {}
/** 503: the graph database is unreachable or busy. */
export declare class UnavailableError extends ServerError {
  readonly retryAfter: number | null;
}
/** No answer: connection refused or reset, DNS or TLS failure. */
export declare class ConnectionError extends GovernanceError {}
/** No complete answer within `timeoutMs`. */
export declare class TimeoutError extends ConnectionError {}
/** `verifyWebhook` refused a delivery: missing header, stale timestamp, no matching signature, body not JSON. */
export declare class WebhookVerificationError extends GovernanceError {}

export declare function errorClassFor(status: number, code?: string | null): typeof APIError;
export declare function errorKind(status: number, code?: string | null): ErrorKind;

// ---------------------------------------------------------------------------
// Pure helpers (the shared contract vectors test these)

/** The most edges (or OpenLineage events) the service takes in one request. */
export declare const MAX_BULK_EDGES: 10000;
export declare function chunks<T>(items: readonly T[], size: number): Generator<T[], void, undefined>;
export declare function chunksOf<T>(
  items: Iterable<T> | AsyncIterable<T>,
  size: number,
): AsyncGenerator<T[], void, undefined>;
export declare function shouldRetry(attempt: {
  method: string;
  /** null for a connection error or timeout. */
  status?: number | null;
  idempotencyKey?: boolean;
}): boolean;
export declare function parseRetryAfter(header: string | null | undefined, now?: number): number | null;
export declare function retryDelayMs(input: {
  attempt: number;
  retryAfter?: number | null;
  random?: () => number;
}): number;
export declare function normalizeBaseURL(input: string): string;
export declare function encodeSegment(id: string): string;
export declare function buildQuery(params?: QueryParams): string;

// ---------------------------------------------------------------------------
// Webhooks

export type WebhookHeaders =
  | Headers
  | { get(name: string): string | null; has(name: string): boolean }
  | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest allowed distance between `webhook-timestamp` and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Now, in seconds since the epoch (or a Date). Default: the clock. */
  now?: number | Date;
}

/**
 * Standard Webhooks verification: checks `webhook-signature` (any `v1,` entry)
 * against HMAC-SHA256 of `${id}.${timestamp}.${body}` in constant time, and the
 * timestamp against the tolerance; returns the parsed envelope or throws
 * WebhookVerificationError. Pass the body exactly as received.
 */
export declare function verifyWebhook<T = GovernanceEvent>(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options?: VerifyWebhookOptions,
): T;
