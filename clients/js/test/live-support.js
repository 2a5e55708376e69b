// Helpers of the live tests: the suite guard, loopback servers on port 0 and bounded waits.
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { test } from 'node:test';

/** Resolves with `promise`, or fails naming `what` after `ms`. */
export async function within(promise, ms, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks `check` again (every 200 ms, at most `timeoutMs`) until it returns
 * something truthy, for state the service settles in the background.
 */
export async function eventually(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * An HTTP server on 127.0.0.1 (port 0) that answers 204 to every POST and keeps
 * each request's headers and raw body; `next(match)` waits for a matching one.
 */
export async function webhookReceiver() {
  const received = [];
  const waiting = [];
  const server = createHttpServer((req, res) => {
    const parts = [];
    req.on('data', (part) => parts.push(part));
    req.on('end', () => {
      const delivery = { path: req.url, headers: req.headers, body: Buffer.concat(parts) };
      received.push(delivery);
      for (const waiter of [...waiting]) {
        if (waiter.match(delivery)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(delivery);
        }
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    received,
    next(match) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiting.push({ match, resolve }));
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A TCP proxy on 127.0.0.1 (port 0) in front of `target` (a URL): `cut()` breaks
 * every open connection, `hold()` keeps new ones waiting until `release()`.
 * `requests` keeps the first bytes each connection sent (the request head).
 */
export async function tcpProxy(target) {
  const { hostname, port } = new URL(target);
  const open = new Set();
  const held = [];
  const requests = [];
  let holding = false;

  const pass = (client) => {
    const upstream = connect(Number(port), hostname);
    open.add(client).add(upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => open.delete(socket));
    }
    client.once('data', (head) => requests.push(head.toString('latin1')));
    client.pipe(upstream).pipe(client);
  };
  const server = createTcpServer((client) => {
    client.on('error', () => undefined);
    if (holding) {
      client.pause();
      held.push(client);
    } else {
      pass(client);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    cut() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const client of held.splice(0)) pass(client);
    },
    close() {
      this.cut();
      for (const client of held.splice(0)) client.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A promise with its resolve function outside, for "wait until X happened". */
export function signal() {
  let resolve;
  const promise = new Promise((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Runs `tests({ baseURL, token })` when GOVERNANCE_URL and GOVERNANCE_TOKEN (an
 * admin token) are set; otherwise one test that fails saying how to run them.
 */
export function liveSuite(tests) {
  const baseURL = process.env.GOVERNANCE_URL;
  const token = process.env.GOVERNANCE_TOKEN;
  if (baseURL && token) {
    tests({ baseURL, token });
    return;
  }
  test('live tests need a running service', () => {
    assert.fail(
      'GOVERNANCE_URL and GOVERNANCE_TOKEN (admin scope) are not set. Run these tests through ' +
        '`.venv/bin/python clients/harness.py js` from the repository root, which starts the ' +
        'service and sets both.',
    );
  });
}
