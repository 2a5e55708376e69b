// The client's own cost: each operation through GovernanceClient and through bare
// fetch (what the client uses) with the same body and headers, timed in turns.
//
// Reads GOVERNANCE_URL, GOVERNANCE_TOKEN, BENCH_ROOT (an asset with a downstream
// graph) and BENCH_RUNS (default 21). Each run times a POST /lineage/bulk of 1,000
// new edges (`bench-js-<run><c|h>-<i>` -> `...-<i+1>`, c for the client, h for fetch, so
// no two requests write the same edges) and a downstream traversal of BENCH_ROOT at
// depth 3, both ways, alternating which goes first; 3 warm-up runs come before.
// Prints one JSON line: {"language": "js", "bulk": {"client_ms": [...], "http_ms":
// [...]}, "traversal": {...}}. Run by bench.sh, which bench/clients.py runs.

import { performance } from 'node:perf_hooks';

import { GovernanceClient, VERSION } from '../index.js';

const WARMUP = 3;
const EDGES = 1000;
const DEPTH = 3;

const url = process.env.GOVERNANCE_URL.replace(/\/+$/, '');
const token = process.env.GOVERNANCE_TOKEN;
const root = process.env.BENCH_ROOT;
const runs = Number(process.env.BENCH_RUNS ?? 21);

const client = new GovernanceClient({ baseURL: url, token });
const headers = {
  accept: 'application/json',
  'user-agent': `governance-client-js/${VERSION} node/${process.version}`,
  authorization: `Bearer ${token}`,
};
const bulkURL = `${url}/api/v1/lineage/bulk`;
const traversalURL = `${url}/api/v1/lineage/${encodeURIComponent(root)}/downstream?depth=${DEPTH}`;

function edges(method, run) {
  const prefix = `bench-js-${run}${method[0]}`;
  return Array.from({ length: EDGES }, (_, i) => ({ source: `${prefix}-${i}`, target: `${prefix}-${i + 1}` }));
}

async function timed(operation) {
  const start = performance.now();
  await operation();
  return performance.now() - start;
}

async function plain(target, init) {
  const response = await fetch(target, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${target}: ${response.status} ${await response.text()}`);
  return response.json();
}

const operations = {
  bulk: {
    client_ms: (run) => {
      const body = edges('client', run);
      return timed(() => client.lineage.bulk(body));
    },
    http_ms: (run) => {
      const body = edges('http', run);
      return timed(() =>
        plain(bulkURL, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    },
  },
  traversal: {
    client_ms: () => timed(() => client.lineage.downstream(root, { depth: DEPTH })),
    http_ms: () => timed(() => plain(traversalURL, { method: 'GET', headers })),
  },
};

const samples = {
  bulk: { client_ms: [], http_ms: [] },
  traversal: { client_ms: [], http_ms: [] },
};
for (let run = -WARMUP; run < runs; run++) {
  const name = run < 0 ? `w${-run}` : String(run);
  for (const [operation, ways] of Object.entries(operations)) {
    const order = run % 2 === 0 ? ['client_ms', 'http_ms'] : ['http_ms', 'client_ms'];
    for (const way of order) {
      const elapsed = await ways[way](name);
      if (run >= 0) samples[operation][way].push(Math.round(elapsed * 1000) / 1000);
    }
  }
}
console.log(JSON.stringify({ language: 'js', ...samples }));
