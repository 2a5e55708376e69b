// The live event stream and webhooks against a running service: GOVERNANCE_URL
// and an admin GOVERNANCE_TOKEN; the service must allow private webhook targets
// (GOVERNANCE_WEBHOOK_ALLOW_PRIVATE=true), since the receiver is on loopback.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';

import { GovernanceClient, NotFoundError, WebhookVerificationError, verifyWebhook } from '../index.js';
import { eventually, liveSuite, signal, tcpProxy, webhookReceiver, within } from './live-support.js';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `jsev-${randomUUID()}`;
  const client = new GovernanceClient({ baseURL, token });
  const asset = (name) => ({ id: `${prefix}.${name}`, name, type: 'table' });
  const WAIT = 30_000;

  after(async () => {
    const mine = [];
    for await (const a of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(a.id);
    for (const id of mine) await client.assets.delete(id).catch(() => undefined);
  });

  describe('event stream', () => {
    test('sees a change, survives a cut connection and resumes with no gap and no duplicate', async () => {
      const proxy = await tcpProxy(baseURL);
      const viaProxy = new GovernanceClient({ baseURL: proxy.url, token });
      const connects = [];
      let connected = signal();
      const stop = new AbortController();
      const stream = viaProxy.events.stream(
        {
          types: ['asset.*'],
          onConnect: (info) => {
            connects.push(info);
            connected.resolve(info);
          },
        },
        { signal: stop.signal },
      );
      const iterator = stream[Symbol.asyncIterator]();
      const all = [];
      const nextOf = async (id) => {
        for (;;) {
          const { value, done } = await iterator.next();
          assert.ok(!done, 'the stream ended');
          all.push(value);
          if (value.data?.id === id) return value;
        }
      };
      try {
        const first = nextOf(`${prefix}.a`);
        await within(connected.promise, WAIT, 'the stream connects');
        await client.assets.create(asset('a'));
        const a = await within(first, WAIT, 'asset a is announced');
        assert.equal(a.type, 'asset.created');
        assert.match(a.id, /^evt_/);

        // Break the connection, and keep the client from getting back until two
        // more changes are made: the resumed stream must replay exactly those.
        connected = signal();
        proxy.hold();
        proxy.cut();
        await client.assets.create(asset('b'));
        await client.assets.patch(`${prefix}.b`, { description: 'changed while away' });
        proxy.release();
        const created = await within(nextOf(`${prefix}.b`), WAIT, 'asset b is replayed');
        const updated = await within(nextOf(`${prefix}.b`), WAIT, 'the change of b is replayed');
        assert.deepEqual([created.type, updated.type], ['asset.created', 'asset.updated']);
        const resumed = await within(connected.promise, WAIT, 'the stream reconnects');
        assert.equal(resumed.reconnect, true);
        assert.ok(Number(resumed.lastEventId) >= a.seq, `resumed after ${resumed.lastEventId}`);
        const head = proxy.requests.at(-1);
        assert.match(head, new RegExp(`\\r\\nlast-event-id: ${resumed.lastEventId}\\r\\n`, 'i'));

        // And it goes on live.
        const third = nextOf(`${prefix}.c`);
        await client.assets.create(asset('c'));
        await within(third, WAIT, 'asset c is announced live');

        const seqs = all.map((e) => e.seq);
        assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y), 'in order');
        assert.equal(new Set(seqs).size, seqs.length, 'no duplicate');
        assert.ok(all.every((e) => e.type.startsWith('asset.')), 'types filter');
        assert.equal(connects[0].reconnect, false);
      } finally {
        stop.abort();
        await iterator.return().catch(() => undefined);
        await proxy.close();
      }
    });

    test('after replays the log from a sequence number', async () => {
      const connected = signal();
      const stop = new AbortController();
      const live = client.events
        .stream({ types: 'asset.created', onConnect: () => connected.resolve() }, { signal: stop.signal })
        [Symbol.asyncIterator]();
      let made;
      try {
        const pending = (async () => {
          for (;;) {
            const { value } = await live.next();
            if (value.data.id === `${prefix}.replayed`) return value;
          }
        })();
        await within(connected.promise, WAIT, 'the stream connects');
        made = await client.assets.create(asset('replayed'));
        made = await within(pending, WAIT, 'asset replayed is announced');
      } finally {
        stop.abort();
        await live.return().catch(() => undefined);
      }
      const controller = new AbortController();
      let first;
      for await (const e of client.events.stream({ after: made.seq - 1 }, { signal: controller.signal })) {
        first = e;
        break;
      }
      assert.deepEqual(first, made);
      const logged = await client.events.list({ after: made.seq - 1, limit: 1 });
      assert.deepEqual(logged.items, [made]);
    });
  });

  describe('webhooks', () => {
    test('a signed delivery reaches a loopback receiver and verifies', async () => {
      const receiver = await webhookReceiver();
      let hook;
      try {
        hook = await client.webhooks.create({ url: receiver.url, types: ['asset.*'], description: prefix }).withResponse();
        assert.equal(hook.status, 201);
        const { secret, ...shown } = hook.data;
        assert.match(secret, /^whsec_/);
        assert.match(shown.id, /^whk_/);
        assert.deepEqual([shown.enabled, shown.types], [true, ['asset.*']]);
        const got = await client.webhooks.get(shown.id);
        assert.equal(got.secret, undefined, 'the secret is shown once');
        let listed = false;
        for await (const w of client.webhooks.iterate({ limit: 100 })) listed ||= w.id === shown.id;
        assert.ok(listed);

        const tried = await client.webhooks.test(shown.id);
        assert.deepEqual([tried.delivered, tried.status], [true, 204]);
        const testDelivery = await within(receiver.next((d) => d.body.includes('webhook.test')), WAIT, 'the test delivery');
        const testEvent = client.webhooks.verify(secret, testDelivery.headers, testDelivery.body);
        assert.equal(testEvent.type, 'webhook.test');
        assert.equal(testDelivery.headers['webhook-id'], testEvent.id);
        const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
        assert.throws(() => verifyWebhook(other, testDelivery.headers, testDelivery.body), WebhookVerificationError);

        const made = await client.assets.create(asset('hooked'));
        const real = await within(
          receiver.next((d) => d.body.includes(JSON.stringify(made.id))),
          WAIT,
          'the delivery of asset.created',
        );
        const event = verifyWebhook(secret, real.headers, real.body);
        assert.deepEqual([event.type, event.data.id], ['asset.created', made.id]);
        assert.equal(real.headers['webhook-id'], event.id);

        const delivery = await eventually(async () => {
          for await (const d of client.webhooks.iterateDeliveries(shown.id)) {
            if (d.event_id === event.id && d.state === 'delivered') return d;
          }
          return null;
        }, 'the delivery log shows it delivered');
        assert.equal(delivery.event_type, 'asset.created');
        assert.ok(delivery.attempts >= 1);
        const firstPage = await client.webhooks.listDeliveries(shown.id, { limit: 1 });
        assert.equal(firstPage.items.length, 1);

        const patched = await client.webhooks.patch(shown.id, { enabled: false, types: ['quality.*'] });
        assert.deepEqual([patched.enabled, patched.types], [false, ['quality.*']]);
      } finally {
        if (hook) {
          assert.equal(await client.webhooks.delete(hook.data.id), undefined);
          await assert.rejects(client.webhooks.get(hook.data.id), NotFoundError);
        }
        await receiver.close();
      }
    });
  });
}
