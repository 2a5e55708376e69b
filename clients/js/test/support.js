// A scripted fetch and a client on it, for the unit tests: no network.
import { GovernanceClient } from '../index.js';

export const BASE = 'http://gov.test:8080';

/** A fetch that answers from a script and records every request. */
export function scripted(...answers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url: new URL(url), init, headers: new Headers(init.headers), body: init.body });
    const next = answers.length > 1 ? answers.shift() : answers[0];
    return typeof next === 'function' ? next(url, init) : next.clone();
  };
  return { fetch, calls };
}

export function json(status, body, headers = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers },
  });
}

export function problem(status, code, extra = {}, headers = {}) {
  return new Response(
    JSON.stringify({
      type: `/problems/${code}`,
      title: 'T',
      status,
      detail: `detail of ${code}`,
      instance: '/api/v1/x',
      code,
      request_id: 'req-42',
      ...extra,
    }),
    { status, headers: { 'content-type': 'application/problem+json', ...headers } },
  );
}

export function client(fetch, options = {}) {
  const sleeps = [];
  const c = new GovernanceClient({
    baseURL: BASE,
    token: 'dgs_test',
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client: c, sleeps };
}
